import { atsRegistry } from '@connector/ats-registry';
import type { DataSource } from 'typeorm';
import { type ConnectorStatus, type ConnectorStatusChangedDto, createEvent } from '@connector/contracts';
import { migratedDataSource } from '@connector/persistence/testing';
import type { ConnectorDeletions } from '@connector/service-kit';
import { createTestDatabase, type TestDatabase } from '@connector/testing';
import { SERVICE_NAME } from '../vacancy-sync.config';
import { VACANCY_SYNC_SCHEMA } from '../vacancy-sync.schema';
import type { ConnectorDirectory } from '@connector/ats-client-factory';
import { AtsAVacancySource } from '@connector/ats-a';
import { AtsBVacancySource } from '@connector/ats-b';
import type { EventFeedService } from '../events/event-feed.service';
import { VacancySources } from '../sources/vacancy-sources';
import { ConnectorStatusChangedHandler } from './connector-status-changed.handler';
import { SyncRunRepository } from './sync-run.repository';

describe(ConnectorStatusChangedHandler.name, () => {
  let database: TestDatabase;
  let dataSource: DataSource;
  let sut: ConnectorStatusChangedHandler;
  const recorded: string[] = [];
  /** What the handler told the event feeds: `connected:<id>` / `ended:<id>`. */
  const feeds: string[] = [];

  beforeAll(async () => {
    database = await createTestDatabase('status_changed');
    dataSource = await migratedDataSource(database.url, { service: SERVICE_NAME, ...VACANCY_SYNC_SCHEMA });
    const deletions = {
      record: (event: { data: ConnectorStatusChangedDto }) => {
        if (event.data.reason === 'deleted') recorded.push(event.data.connectorId);
        return Promise.resolve();
      },
    };
    // The registry's answer: a connector's snapshot, or none (the registry is away) for `c-unknown-*`.
    const directory = {
      get: (connectorId: string) =>
        connectorId.startsWith('c-unknown')
          ? Promise.reject(new Error('no answer from connector-registry'))
          : Promise.resolve({ id: connectorId, type: 'ats-a', config: { baseUrl: 'https://acme.example/' } }),
    };
    sut = new ConnectorStatusChangedHandler(
      new SyncRunRepository(dataSource),
      deletions as unknown as ConnectorDeletions,
      directory as unknown as ConnectorDirectory,
      new VacancySources(
        atsRegistry,
        new AtsAVacancySource(undefined as never),
        new AtsBVacancySource(undefined as never),
      ),
      {
        connected: async (connectorId: string) => void feeds.push(`connected:${connectorId}`),
        ended: async (connectorId: string) => void feeds.push(`ended:${connectorId}`),
      } as unknown as EventFeedService,
    );
  });

  afterAll(async () => {
    await dataSource?.destroy();
    await database?.drop();
  });

  const t = (minute: number) => new Date(Date.UTC(2026, 0, 1, 12, minute));
  const event = (connectorId: string, status: ConnectorStatus, at: Date, reason?: string) =>
    createEvent(
      'connector.status_changed',
      'acct_1',
      { connectorId, status, ...(reason ? { reason } : {}) },
      { occurredAt: at },
    );
  const active = async (connectorId: string) => {
    const rows = (await dataSource.query('SELECT "active" FROM "sync_connector" WHERE "connector_id" = $1', [
      connectorId,
    ])) as Array<{ active: boolean }>;
    return rows[0]?.active;
  };

  it("knows a connected connector's customer system before its first run, or learns it at that run", async () => {
    await sut.handle(event('c-system', 'connected', t(1)));
    await sut.handle(event('c-unknown-system', 'connected', t(1)));
    const rows = (await dataSource.query(
      `SELECT connector_id, system_key, active FROM sync_connector WHERE connector_id IN ('c-system', 'c-unknown-system') ORDER BY connector_id`,
    )) as Array<{ connector_id: string; system_key: string | null; active: boolean }>;
    expect(rows).toEqual([
      { connector_id: 'c-system', system_key: 'ats-a:https://acme.example', active: true },
      { connector_id: 'c-unknown-system', system_key: null, active: true },
    ]);
  });

  it('schedules a connected connector and stops one that loses its authorization', async () => {
    await sut.handle(event('c-plain', 'connected', t(1)));
    expect(await active('c-plain')).toBe(true);
    await sut.handle(event('c-plain', 'auth_failed', t(2)));
    expect(await active('c-plain')).toBe(false);
    await sut.handle(event('c-plain', 'connected', t(3)));
    expect(await active('c-plain')).toBe(true);
  });

  it('ignores an older auth_failed that arrives after a newer connected', async () => {
    await sut.handle(event('c-late-failure', 'auth_failed', t(1)));
    await sut.handle(event('c-late-failure', 'connected', t(3)));
    await sut.handle(event('c-late-failure', 'auth_failed', t(2)));
    expect(await active('c-late-failure')).toBe(true);
  });

  it('ignores an older connected that arrives after a newer auth_failed, even for a connector it did not know', async () => {
    await sut.handle(event('c-late-connected', 'auth_failed', t(5)));
    await sut.handle(event('c-late-connected', 'connected', t(4)));
    expect(await active('c-late-connected')).toBe(false);
  });

  it('applies a redelivered event again, and applies a deletion even when it arrives late', async () => {
    const connected = event('c-deleted', 'connected', t(7));
    await sut.handle(connected);
    await sut.handle(connected);
    expect(await active('c-deleted')).toBe(true);
    await sut.handle(event('c-deleted', 'disabled', t(6), 'deleted'));
    expect(recorded).toEqual(['c-deleted']);
    expect(await active('c-deleted')).toBe(false);
  });

  it('makes the event feed of a connected connector and ends it when the connector is disabled or deleted', async () => {
    feeds.length = 0;
    await sut.handle(event('c-feed', 'connected', t(10)));
    await sut.handle(event('c-feed', 'auth_failed', t(11)));
    await sut.handle(event('c-feed', 'connected', t(12)));
    await sut.handle(event('c-feed', 'disabled', t(13)));
    await sut.handle(event('c-feed-deleted', 'disabled', t(13), 'deleted'));
    // Waiting for authorization keeps the subscription (the connector comes back to it); an older event does nothing.
    await sut.handle(event('c-feed', 'connected', t(9)));
    await sut.handle(event('c-feed-kept', 'connected', t(20)));
    await sut.handle(event('c-feed-kept', 'disabled', t(19)));
    expect(feeds).toEqual([
      'connected:c-feed',
      'connected:c-feed',
      'ended:c-feed',
      'ended:c-feed-deleted',
      'connected:c-feed-kept',
    ]);
  });
});
