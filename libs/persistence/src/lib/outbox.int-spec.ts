import { register } from 'prom-client';
import { DataSource } from 'typeorm';
import { createEvent, type EventEnvelope, validateMessage } from '@connector/contracts';
import { createTestDatabase, eventually, type TestDatabase } from '@connector/testing';
import { dataSourceOptions, runMigrations } from './data-source';
import { addToOutbox, OutboxRelay } from './outbox';
import { schemaDrift } from '../test/schema-drift';
import { OUTBOX_SCHEMA } from './shared-tables';

describe(OutboxRelay.name, () => {
  let database: TestDatabase;
  let dataSource: DataSource;
  const relays: OutboxRelay[] = [];

  beforeAll(async () => {
    database = await createTestDatabase('outbox');
    const schema = { service: 'outbox-test', entities: [], migrations: [], shared: [OUTBOX_SCHEMA] };
    dataSource = await new DataSource(dataSourceOptions({ ...schema, url: database.url })).initialize();
    await runMigrations(dataSource, schema.shared);
  });
  afterEach(async () => {
    await Promise.all(relays.splice(0).map((relay) => relay.stop()));
    await dataSource.query('DELETE FROM "outbox_message"');
  });
  afterAll(async () => {
    await dataSource.destroy();
    await database.drop();
  });

  const status = (connectorId: string) =>
    createEvent('connector.status_changed', 'acct_1', { connectorId, status: 'auth_failed' });
  const rows = () =>
    dataSource.query(
      'SELECT "message_id", "publisher", "attempts", "sent_at" IS NOT NULL AS "sent", "last_error" FROM "outbox_message" ORDER BY "id"',
    ) as Promise<
      Array<{
        message_id: string;
        publisher: string;
        attempts: number;
        sent: boolean;
        last_error: string | null;
      }>
    >;
  /** A broker that can be unreachable: publish fails (as an unconfirmed publish does) while `down`. */
  const broker = () => {
    const published: EventEnvelope[] = [];
    const state = { down: false, attempts: 0 };
    const publish = async (_exchange: string, envelope: EventEnvelope) => {
      state.attempts++;
      if (state.down) throw new Error('publish not confirmed within 10000 ms');
      published.push(envelope);
    };
    return { published, state, publish };
  };
  const relay = (
    publisher: string,
    publish: (x: string, e: EventEnvelope) => Promise<void>,
    batchSize = 50,
    maxAttempts?: number,
  ) => {
    const made = new OutboxRelay(dataSource, {
      publisher,
      publish,
      intervalMs: 50,
      maxBackoffMs: 200,
      batchSize,
      maxAttempts,
    });
    relays.push(made);
    return made;
  };

  it('publishes what a committed transaction stored, in order, once, and marks it sent; a rollback stores nothing', async () => {
    const { published, publish } = broker();
    const [a, b, lost] = [status('c-a'), status('c-b'), status('c-lost')];
    await dataSource.transaction((manager) =>
      addToOutbox(manager, 'registry', [
        { exchange: 'connector.events', envelope: a },
        { exchange: 'connector.events', envelope: b },
      ]),
    );
    await expect(
      dataSource.transaction(async (manager) => {
        await addToOutbox(manager, 'registry', [{ exchange: 'connector.events', envelope: lost }]);
        throw new Error('the state change failed');
      }),
    ).rejects.toThrow('the state change failed');

    const sut = relay('registry', publish);
    await expect(sut.relayOnce()).resolves.toMatchObject({ sent: 2 });
    await expect(sut.relayOnce()).resolves.toMatchObject({ sent: 0 });
    expect(published.map((e) => e.id)).toEqual([a.id, b.id]);
    expect(published[0]).toEqual(a);
    expect(await rows()).toEqual([
      expect.objectContaining({ message_id: a.id, sent: true, attempts: 1 }),
      expect.objectContaining({ message_id: b.id, sent: true, attempts: 1 }),
    ]);
  });

  it('keeps rows while the broker is unreachable and publishes them when it is back', async () => {
    const { published, state, publish } = broker();
    state.down = true;
    const event = status('c-outage');
    await addToOutbox(dataSource.manager, 'auth-gateway', [
      { exchange: 'connector.events', envelope: event },
    ]);
    const sut = relay('auth-gateway', publish);
    sut.start();
    await eventually(() => state.attempts >= 3, 5_000, 'retried during the outage');
    expect(published).toEqual([]);
    expect(await rows()).toEqual([
      expect.objectContaining({ sent: false, last_error: 'publish not confirmed within 10000 ms' }),
    ]);

    state.down = false;
    await eventually(async () => (await rows())[0]?.sent === true, 5_000, 'sent after the outage');
    expect(published.map((e) => e.id)).toEqual([event.id]);
  });

  it('tries nothing while not connected, and publishes at once when woken', async () => {
    const { published, state, publish } = broker();
    let connected = false;
    const sut = new OutboxRelay(dataSource, {
      publisher: 'registry',
      publish,
      ready: () => connected,
      intervalMs: 60_000,
    });
    relays.push(sut);
    await addToOutbox(dataSource.manager, 'registry', [
      { exchange: 'connector.events', envelope: status('c-ready') },
    ]);
    await expect(sut.relayOnce()).resolves.toMatchObject({ sent: 0, notReady: true });
    expect(state.attempts).toBe(0);
    connected = true;
    sut.start(); // its first batch runs at once; the next poll would be a minute away
    await eventually(() => published.length === 1, 5_000, 'first batch');
    await addToOutbox(dataSource.manager, 'registry', [
      { exchange: 'connector.events', envelope: status('c-woken') },
    ]);
    sut.wake();
    await eventually(() => published.length === 2, 5_000, 'woken');
  });

  it('publishes each row once across processes, and only its own service’s rows', async () => {
    const first = broker();
    const second = broker();
    const slow =
      (publish: (x: string, e: EventEnvelope) => Promise<void>) => async (x: string, e: EventEnvelope) => {
        await new Promise((resolve) => setTimeout(resolve, 5));
        await publish(x, e);
      };
    const events = Array.from({ length: 30 }, (_, i) => status(`c-${i}`));
    await addToOutbox(
      dataSource.manager,
      'registry',
      events.map((envelope) => ({ exchange: 'connector.events', envelope })),
    );
    await addToOutbox(dataSource.manager, 'auth-gateway', [
      { exchange: 'connector.events', envelope: status('c-other') },
    ]);
    // Two "processes" relaying the same service's rows at once, five rows a batch.
    const [a, b] = [relay('registry', slow(first.publish), 5), relay('registry', slow(second.publish), 5)];
    for (let round = 0; round < 4; round++) {
      await Promise.all([a.relayOnce(), b.relayOnce(), a.relayOnce(), b.relayOnce()]);
    }
    expect(first.published.length).toBeGreaterThan(0);
    expect(second.published.length).toBeGreaterThan(0);
    const ids = [...first.published, ...second.published].map((e) => e.id);
    expect(ids.sort()).toEqual(events.map((e) => e.id).sort());
    expect((await rows()).filter((r) => r.publisher === 'auth-gateway')).toEqual([
      expect.objectContaining({ sent: false, attempts: 0 }),
    ]);
  });

  /** A broker behind MessagePublisher: it refuses an envelope that fails the contract's check. */
  const validating =
    (publish: (x: string, e: EventEnvelope) => Promise<void>) => (x: string, e: EventEnvelope) => {
      const validation = validateMessage(JSON.stringify(e), e.type);
      if (!validation.ok) {
        return Promise.reject(
          new Error(`refusing to publish an invalid ${e.type}: ${validation.errors.join('; ')}`),
        );
      }
      return publish(x, e);
    };
  const parkedRows = () =>
    dataSource.query(
      'SELECT "message_id", "attempts", "last_error" FROM "outbox_message" WHERE "parked_at" IS NOT NULL ORDER BY "id"',
    ) as Promise<Array<{ message_id: string; attempts: number; last_error: string | null }>>;
  const parkedMetric = async (publisher: string) => {
    const line = (await register.metrics())
      .split('\n')
      .find((l) => l.startsWith(`connector_outbox_parked_total{publisher="${publisher}"}`));
    return line ? Number(line.split(' ').pop()) : 0;
  };

  it('parks a row that can never be published, and publishes the rows behind it', async () => {
    const { published, state, publish } = broker();
    const poison = { ...status('c-poison'), data: { connectorId: 'c-poison', status: 'no-such-status' } };
    const good = [status('c-after-1'), status('c-after-2')];
    await addToOutbox(
      dataSource.manager,
      'poison-svc',
      [poison as EventEnvelope, ...good].map((envelope) => ({ exchange: 'connector.events', envelope })),
    );
    const before = await parkedMetric('poison-svc');

    const sut = relay('poison-svc', validating(publish));
    for (let i = 0; i < 3; i++) await sut.relayOnce();

    expect(published.map((e) => e.id)).toEqual(good.map((e) => e.id));
    expect(await parkedRows()).toEqual([
      expect.objectContaining({ message_id: poison.id, last_error: expect.stringContaining('invalid') }),
    ]);
    // Parked at once, never offered to the broker, and not tried again.
    expect(state.attempts).toBe(2);
    expect(await parkedMetric('poison-svc')).toBe(before + 1);
  });

  it('parks a row the broker keeps refusing once a row behind it went through, and keeps publishing', async () => {
    const { published, publish } = broker();
    const tooBig = status('c-too-big');
    const refusing = (x: string, e: EventEnvelope) =>
      e.id === tooBig.id ? Promise.reject(new Error('message size exceeds max_message_size')) : publish(x, e);
    await addToOutbox(dataSource.manager, 'big-svc', [{ exchange: 'connector.events', envelope: tooBig }]);
    const sut = relay('big-svc', refusing, 50, 3);
    // Alone, it waits (nothing is behind it): with nothing else to publish, its failures prove nothing.
    for (let i = 0; i < 5; i++) await expect(sut.relayOnce()).resolves.toMatchObject({ sent: 0 });
    expect(await parkedRows()).toEqual([]);

    const behind = [status('c-behind-1'), status('c-behind-2')];
    await addToOutbox(
      dataSource.manager,
      'big-svc',
      behind.map((envelope) => ({ exchange: 'connector.events', envelope })),
    );
    sut.start();
    await eventually(() => published.length === 2, 5_000, 'the rows behind published');
    expect(published.map((e) => e.id)).toEqual(behind.map((e) => e.id));
    expect(await parkedRows()).toEqual([
      expect.objectContaining({
        message_id: tooBig.id,
        last_error: expect.stringContaining('max_message_size'),
      }),
    ]);
  });

  it('parks nothing while the broker refuses every row, however long', async () => {
    const { published, state, publish } = broker();
    state.down = true;
    const events = [status('c-down-1'), status('c-down-2')];
    await addToOutbox(
      dataSource.manager,
      'down-svc',
      events.map((envelope) => ({ exchange: 'connector.events', envelope })),
    );
    const sut = relay('down-svc', publish, 50, 2);
    for (let i = 0; i < 6; i++) await sut.relayOnce();
    expect(await parkedRows()).toEqual([]);
    state.down = false;
    await sut.relayOnce();
    expect(published.map((e) => e.id)).toEqual(events.map((e) => e.id));
  });

  it('has an entity that matches its migration', async () => {
    const empty = await createTestDatabase('outbox_drift');
    try {
      expect(
        await schemaDrift(empty.url, {
          service: 'outbox-test',
          entities: [],
          migrations: [],
          shared: [OUTBOX_SCHEMA],
        }),
      ).toEqual([]);
    } finally {
      await empty.drop();
    }
  });
});
