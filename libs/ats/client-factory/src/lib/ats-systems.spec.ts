import { atsRegistry } from '@connector/ats-registry';
import { AtsError } from '@connector/ats-http';
import type { ConnectorSnapshot } from '@connector/contracts';
import { DeferredMessageError, TransientMessageError } from '@connector/messaging';
import { ConcurrencyBusyError } from '@connector/rate-limiter';
import { AtsSystems, AtsSystemUnavailableError } from './ats-systems';
import { toMessageError } from './to-message-error';

const connector = (id: string, type: string, config: Record<string, unknown> = {}, accountId = 'acct_1') =>
  ({
    id,
    accountId,
    type,
    name: id,
    status: 'connected',
    options: {},
    config,
  }) as unknown as ConnectorSnapshot;

const unavailable = () =>
  new AtsError('503', { kind: 'transient', endpoint: 'POST /candidates', status: 503 });

describe(AtsSystems.name, () => {
  describe('keyOf', () => {
    const keyed = new AtsSystems(atsRegistry);

    it("is the adapter's budget key: connectors on one customer system share it, tenants of one host do not", () => {
      const a1 = connector('c1', 'ats-a', { baseUrl: 'https://ats.example.com/t/one' });
      const a2 = connector('c2', 'ats-a', { baseUrl: 'https://ats.example.com/t/one' });
      const a3 = connector('c3', 'ats-a', { baseUrl: 'https://ats.example.com/t/two' });
      expect(keyed.keyOf(a1)).toBe(keyed.keyOf(a2));
      expect(keyed.keyOf(a1)).not.toBe(keyed.keyOf(a3));
      // Another account's connector on the same address is another customer's system.
      expect(keyed.keyOf(a1)).not.toBe(keyed.keyOf({ ...a1, id: 'c9', accountId: 'acct_2' }));
    });

    it('is the connector itself for a per-connector budget (one corp on a shared host) or no budget', () => {
      const b1 = connector('c1', 'ats-b', { routine: 'api-oauth' });
      const b2 = connector('c2', 'ats-b', { routine: 'api-oauth' });
      expect(keyed.keyOf(b1)).not.toBe(keyed.keyOf(b2));
      expect(keyed.keyOf(connector('c7', 'not-registered'))).toBe('connector:c7');
    });
  });

  it("defers work past a system's cap after the short wait, while another system's work goes at once", async () => {
    const systems = new AtsSystems(atsRegistry, { perSystem: 2, maxWaitMs: 20 });
    const slow = connector('slow', 'none');
    let finish!: () => void;
    const held = new Promise<void>((resolve) => (finish = resolve));
    const holders = [1, 2].map(() => systems.run('candidate-writes', slow, () => held));
    expect(systems.snapshot('candidate-writes')).toMatchObject({ held: 2, fullKeys: 1, largestShare: 1 });
    const busy = await systems
      .run('candidate-writes', slow, async () => 'ran')
      .catch((error: unknown) => error);
    expect(busy).toBeInstanceOf(ConcurrencyBusyError);
    expect(toMessageError(busy, 'slow')).toBeInstanceOf(DeferredMessageError);
    await expect(systems.run('candidate-writes', connector('fast', 'none'), async () => 'ran')).resolves.toBe(
      'ran',
    );
    // Another path of the slow system has its own slots.
    await expect(systems.run('document-writes', slow, async () => 'ran')).resolves.toBe('ran');
    finish();
    await Promise.all(holders);
    expect(systems.snapshot('candidate-writes')).toMatchObject({ held: 0, keys: 0 });
  });

  it('opens the breaker on 5xx, not on 4xx; while open, defers without calling, then counts once the message is old', async () => {
    const systems = new AtsSystems(atsRegistry, { maxDeferAgeMs: 60_000, breaker: { failures: 2 } });
    const c = connector('c1', 'none');
    const refused = new AtsError('422', { kind: 'permanent', endpoint: 'POST /candidates', status: 422 });
    for (let i = 0; i < 3; i += 1) {
      await expect(systems.run('candidate-writes', c, () => Promise.reject(refused))).rejects.toBe(refused);
    }
    for (let i = 0; i < 2; i += 1) {
      await expect(
        systems.run('candidate-writes', c, () => Promise.reject(unavailable())),
      ).rejects.toBeInstanceOf(AtsError);
    }
    const work = jest.fn(async () => 'ran');
    const young = await systems
      .run('application-writes', c, work, { since: new Date().toISOString() })
      .catch((error: unknown) => error);
    expect(young).toBeInstanceOf(AtsSystemUnavailableError);
    expect(toMessageError(young, 'c1')).toBeInstanceOf(DeferredMessageError);
    const old = await systems
      .run('candidate-writes', c, work, { since: new Date(Date.now() - 120_000) })
      .catch((error: unknown) => error);
    const failure = toMessageError(old, 'c1');
    expect(failure).toBeInstanceOf(TransientMessageError);
    expect((failure as TransientMessageError).notBeforeMs).toBeGreaterThan(0);
    expect(work).not.toHaveBeenCalled();
    expect(systems.breakers.openCount()).toBe(1);
  });
});
