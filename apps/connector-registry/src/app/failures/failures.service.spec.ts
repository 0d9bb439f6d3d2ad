import { createHash } from 'node:crypto';
import { RoutingKey } from '@connector/contracts';
import type { DeadLetter, MessagePublisher, RabbitConnection } from '@connector/messaging';
import type { ErasedCandidates } from '@connector/service-kit';
import type { ConnectorRegistryConfig } from '../connector-registry.config';
import type { ConnectorRepository } from '../repositories/connector.repository';
import type { DeadLetterRepository } from './dead-letter.repository';
import { FailuresService } from './failures.service';

/** Local mode: every service is broker user `guest`. */
const config = {
  RABBITMQ_USERS: '',
  RABBITMQ_URL: 'amqp://guest:guest@127.0.0.1:5672',
  FAILURE_LOG_BODIES_PER_ACCOUNT_HOUR: 2,
  FAILURE_LOG_BYTES_PER_ACCOUNT_HOUR: 1_048_576,
} as ConnectorRegistryConfig;

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
      config,
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

  it('keeps an account’s flood of failures without their bodies past its hourly cap, and still reports them', async () => {
    const { kept, published, keep } = setUp();
    for (let i = 0; i < 3; i++) {
      await keep({
        ...deadLetter(RoutingKey.CandidateUpdated),
        candidateId: `cand-${i + 10}`,
        body: Buffer.from('{"a":1}'),
      });
    }
    await keep({
      ...deadLetter(RoutingKey.CandidateUpdated),
      accountId: 'acct_other',
      candidateId: 'cand-20',
    });
    expect(kept.map((d) => [d.accountId, d.body.length, d.retryable])).toEqual([
      ['acct', 7, true],
      ['acct', 7, true],
      ['acct', 0, false],
      ['acct_other', 2, true],
    ]);
    expect(kept[2]?.reasons.at(-1)).toMatch(/body not kept: the account's failure log is over its cap/);
    expect(published).toHaveLength(4);
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

  it('deletes a dead letter whose candidate was erased between the check and the insert', async () => {
    const erasedAfter: string[] = [];
    let checks = 0;
    const service = new FailuresService(
      {
        keep: async () => undefined,
        eraseCandidate: async (_account: string, candidateId: string) => void erasedAfter.push(candidateId),
      } as unknown as DeadLetterRepository,
      {} as ConnectorRepository,
      {} as RabbitConnection,
      { publish: async () => undefined } as unknown as MessagePublisher,
      // Not erased when first asked; erased by the time the row is in.
      { isErased: async () => checks++ > 0 } as unknown as ErasedCandidates,
      config,
    );
    await (service as unknown as { keep(d: DeadLetter): Promise<void> }).keep({
      ...deadLetter(RoutingKey.CandidateUpdated),
      candidateId: 'cand-9',
    });
    expect(erasedAfter).toEqual(['cand-9']);
  });

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

  it('keeps only the start of a body over MAX_MESSAGE_BYTES, with its size and hash, not replayable', async () => {
    const { kept, keep } = setUp();
    const body = Buffer.alloc(2 * 1024 * 1024, 'x');
    await keep({ ...deadLetter(RoutingKey.CandidateCreated), candidateId: 'cand-3', body });
    expect(kept[0]!.body.length).toBe(64 * 1024);
    expect(kept[0]!.retryable).toBe(false);
    expect(kept[0]!.reasons.at(-1)).toBe(
      `kept the first 65536 of its ${body.length} bytes (sha256 ${createHash('sha256').update(body).digest('hex')}): it cannot be replayed`,
    );
  });

  const replaying = (overrides: object) => {
    const row = {
      id: 'f1',
      queue: 'document-service.events',
      routingKey: RoutingKey.CandidateSynced,
      type: RoutingKey.CandidateSynced,
      messageId: 'm1',
      body: Buffer.from('{}'),
      reasons: ['first reason'],
      retryable: true,
      publishedBy: 'guest',
      ...overrides,
    };
    const published: unknown[] = [];
    const notes: string[] = [];
    const service = new FailuresService(
      {
        findOwned: async () => row,
        addReason: async (_id: string, reason: string) => void notes.push(reason),
        markReplayed: async () => undefined,
      } as unknown as DeadLetterRepository,
      {} as ConnectorRepository,
      {} as RabbitConnection,
      { publishRaw: async (...args: unknown[]) => void published.push(args) } as unknown as MessagePublisher,
      {} as ErasedCandidates,
      config,
    );
    return { published, notes, replay: () => service.replay({ accountId: 'acct' } as never, 'f1') };
  };

  it.each([
    ['not retryable', { retryable: false }, 'not retryable: first reason'],
    [
      'from a sender that may not publish its type',
      { publishedBy: 'intruder' },
      'refused candidate.synced from broker user "intruder": only candidate-sync may publish it',
    ],
    [
      'without a sender',
      { publishedBy: null },
      'refused candidate.synced without user_id: only candidate-sync may publish it',
    ],
  ])('refuses to replay a failure %s, and says why in the failure log', async (_case, overrides, reason) => {
    const { published, notes, replay } = replaying(overrides);
    await expect(replay()).rejects.toMatchObject({ code: 'NOT_REPLAYABLE', message: reason });
    expect(published).toEqual([]);
    expect(notes).toEqual([`replay refused: ${reason}`]);
  });

  it('replays a retryable failure of a sender that may publish it', async () => {
    const { published, replay } = replaying({});
    await expect(replay()).resolves.toEqual({ replayed: true });
    expect(published).toHaveLength(1);
  });

  it('refuses to replay a request (409 NOT_REPLAYABLE), even one kept before requests were dropped', async () => {
    const { published, replay } = replaying({
      queue: 'auth-gateway.commands',
      routingKey: RoutingKey.AuthCredentialsSave,
      type: RoutingKey.AuthCredentialsSave,
    });
    await expect(replay()).rejects.toMatchObject({
      code: 'NOT_REPLAYABLE',
      message: expect.stringContaining('is a request'),
    });
    expect(published).toEqual([]);
  });
});
