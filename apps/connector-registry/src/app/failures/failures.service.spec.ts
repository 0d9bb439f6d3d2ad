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
});
