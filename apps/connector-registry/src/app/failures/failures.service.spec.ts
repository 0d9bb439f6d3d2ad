import { RoutingKey } from '@connector/contracts';
import type { DeadLetter, MessagePublisher, RabbitConnection } from '@connector/messaging';
import type { ErasedCandidates } from '@connector/service-kit';
import type { ConnectorRepository } from '../repositories/connector.repository';
import type { DeadLetterRepository } from './dead-letter.repository';
import { FailuresService } from './failures.service';

describe(FailuresService.name, () => {
  /** The service with an erased candidate `cand-1`; `keep` is what the dead-letter collector calls. */
  const setUp = () => {
    const kept: DeadLetter[] = [];
    const published: unknown[] = [];
    const service = new FailuresService(
      {
        keep: async (deadLetter: DeadLetter) => void kept.push(deadLetter),
      } as unknown as DeadLetterRepository,
      {} as ConnectorRepository,
      {} as RabbitConnection,
      {
        publish: async (_exchange: string, event: unknown) => void published.push(event),
      } as unknown as MessagePublisher,
      {
        isErased: async (_account: string, candidateId: string) => candidateId === 'cand-1',
      } as unknown as ErasedCandidates,
    );
    const keep = (deadLetter: DeadLetter) =>
      (service as unknown as { keep(d: DeadLetter): Promise<void> }).keep(deadLetter);
    return { kept, published, keep };
  };
  const deadLetter = (routingKey: string): DeadLetter => ({
    queue: 'candidate-sync.events',
    routingKey,
    messageId: `m-${routingKey}`,
    body: Buffer.from('{}'),
    reasons: ['database unreachable'],
    retryable: true,
    failedAt: new Date(),
    accountId: 'acct',
    candidateId: 'cand-1',
    headers: {},
    reported: false,
  });

  it("does not keep a dead letter about an erased candidate: its body is that person's data", async () => {
    const { kept, published, keep } = setUp();
    await keep(deadLetter(RoutingKey.CandidateUpdated));
    expect(kept).toEqual([]);
    expect(published).toEqual([]);
  });

  it.each([RoutingKey.CandidateErased, RoutingKey.ErasurePartCompleted])(
    'keeps and reports a failed %s of an erased candidate: the erasure must be seen and replayable',
    async (routingKey) => {
      const { kept, published, keep } = setUp();
      await keep(deadLetter(routingKey));
      expect(kept.map((d) => d.routingKey)).toEqual([routingKey]);
      expect(published).toHaveLength(1);
    },
  );

  it('keeps a dead letter with its secret fields redacted, and then not replayable', async () => {
    const { kept, keep } = setUp();
    await keep({
      ...deadLetter(RoutingKey.CandidateCreated),
      candidateId: 'cand-2',
      body: Buffer.from(JSON.stringify({ data: { clientSecret: 'hunter2' } })),
      reasons: ['POST /token?client_secret=hunter2 failed'],
    });
    expect(kept).toHaveLength(1);
    expect(kept[0]!.body.toString()).not.toContain('hunter2');
    expect(kept[0]!.reasons.join(' ')).not.toContain('hunter2');
    expect(kept[0]!.retryable).toBe(false);
  });

  it('refuses to replay a request (409 NOT_REPLAYABLE), even one kept before requests were dropped', async () => {
    const row = {
      id: 'f1',
      queue: 'auth-gateway.commands',
      routingKey: RoutingKey.AuthCredentialsSave,
      type: RoutingKey.AuthCredentialsSave,
      messageId: 'm1',
      body: Buffer.from('{}'),
      retryable: true,
      publishedBy: null,
    };
    const published: unknown[] = [];
    const service = new FailuresService(
      { findOwned: async () => row } as unknown as DeadLetterRepository,
      {} as ConnectorRepository,
      {} as RabbitConnection,
      { publishRaw: async (...args: unknown[]) => void published.push(args) } as unknown as MessagePublisher,
      {} as ErasedCandidates,
    );
    await expect(service.replay({ accountId: 'acct' } as never, 'f1')).rejects.toMatchObject({
      code: 'NOT_REPLAYABLE',
      message: expect.stringContaining('is a request'),
    });
    expect(published).toEqual([]);
  });
});
