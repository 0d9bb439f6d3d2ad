import { atsRegistry } from '@connector/ats-registry';
import { AtsSystems, type ConnectorDirectory } from '@connector/ats-client-factory';
import { type ConnectorSnapshot, createEvent, RoutingKey } from '@connector/contracts';
import type { CandidateLocks } from '@connector/exactly-once';
import type { Lease } from '@connector/persistence';
import { CandidateErasedError, type ErasedCandidates } from '@connector/service-kit';
import type { SyncedEvents } from '../common/synced-events';
import type { CandidateLinkRepository } from './candidate-link.repository';
import type { CandidateSinks } from './candidate-sinks';
import { type CandidateEvent, CandidateSyncService } from './candidate-sync.service';
import { FieldHasher } from '@connector/ats-core';

describe(CandidateSyncService.name, () => {
  const connector = (id: string, status: ConnectorSnapshot['status']): ConnectorSnapshot => ({
    id,
    accountId: 'acct',
    type: 'ats-a',
    name: id,
    status,
    options: {},
    config: {},
    mapping: { version: 1, mapping: {} },
    updatedAt: '2026-11-23T00:00:00.000Z',
  });
  const event = createEvent(RoutingKey.CandidateCreated, 'acct', {
    candidateId: 'cand-1',
    firstName: 'Ada',
    lastName: 'Lovelace',
    email: 'ada@example.com',
  }) as CandidateEvent;

  const setUp = (connectors: ConnectorSnapshot[], erasedInDatabase: boolean) => {
    const assertNotErased = jest.fn(async () => {
      if (erasedInDatabase) throw new CandidateErasedError('cand-1');
    });
    const found = jest.fn(() => ({ erased: true as const }));
    const claimOrFind = jest.fn(() => ({ found }));
    const lease: Lease = { key: 'k', token: 7, signal: new AbortController().signal };
    const sut = new CandidateSyncService(
      { forAccount: async () => connectors } as unknown as ConnectorDirectory,
      {} as CandidateSinks,
      { claimOrFind } as unknown as CandidateLinkRepository,
      {
        runBy: (claim: { found(): unknown }, work: (l: Lease, found: unknown) => Promise<unknown>) =>
          work(lease, claim.found()),
      } as unknown as CandidateLocks,
      {} as SyncedEvents,
      new FieldHasher('test-key'),
      { assertNotErased } as unknown as ErasedCandidates,
      new AtsSystems(atsRegistry),
    );
    return { sut, assertNotErased, claimOrFind, found };
  };

  it('finds an erased candidate under the lock, with no statement of its own at the door', async () => {
    const { sut, assertNotErased, claimOrFind, found } = setUp([connector('c1', 'connected')], true);
    await expect(sut.sync(event)).rejects.toBeInstanceOf(CandidateErasedError);
    expect(claimOrFind).toHaveBeenCalledWith(
      { connectorId: 'c1', candidateId: 'cand-1' },
      { accountId: 'acct', eventId: event.id },
    );
    expect(found).toHaveBeenCalled();
    expect(assertNotErased).not.toHaveBeenCalled();
  });

  it('refuses an erased candidate at once, even when another connector must wait for authorization', async () => {
    const { sut } = setUp([connector('c0', 'auth_failed'), connector('c1', 'connected')], true);
    await expect(sut.sync(event)).rejects.toBeInstanceOf(CandidateErasedError);
  });

  it('asks whether the candidate is erased when no connector takes the work', async () => {
    const { sut, assertNotErased } = setUp([connector('c1', 'disabled')], true);
    await expect(sut.sync(event)).rejects.toBeInstanceOf(CandidateErasedError);
    expect(assertNotErased).toHaveBeenCalledWith('acct', 'cand-1');
  });

  it('keeps recording a candidate the ATS created while Postgres is briefly away, creating it once', async () => {
    const create = jest.fn(async () => ({
      externalId: 'ats-1',
      sent: { fields: {}, children: {} },
      complete: true,
    }));
    let refusals = 2;
    const applied = jest.fn(async () => {
      if (refusals-- > 0) throw new Error('Connection terminated unexpectedly');
    });
    const candidateSynced = jest.fn(async () => undefined);
    const lease: Lease = { key: 'k', token: 7, signal: new AbortController().signal };
    const sut = new CandidateSyncService(
      { forAccount: async () => [connector('c1', 'connected')] } as unknown as ConnectorDirectory,
      { for: () => ({ findExisting: async () => undefined, create }) } as unknown as CandidateSinks,
      {
        claimOrFind: () => ({ found: () => ({ erased: false, claimed: true }) }),
        applied,
      } as unknown as CandidateLinkRepository,
      {
        runBy: (claim: { found(): unknown }, work: (l: Lease, found: unknown) => Promise<unknown>) =>
          work(lease, claim.found()),
      } as unknown as CandidateLocks,
      { candidateSynced } as unknown as SyncedEvents,
      new FieldHasher('test-key'),
      {} as ErasedCandidates,
      new AtsSystems(atsRegistry),
    );
    await sut.sync(event);
    expect(create).toHaveBeenCalledTimes(1);
    expect(applied).toHaveBeenCalledTimes(3);
    expect(candidateSynced).toHaveBeenCalledWith(event, expect.objectContaining({ externalId: 'ats-1' }));
  });
  it("keeps recording a child record's checkpoint while Postgres is briefly away, and hands the sink its lock", async () => {
    const lease: Lease = { key: 'k', token: 7, signal: new AbortController().signal };
    const childCreates = jest.fn(async () => 51);
    const create = jest.fn(async (_candidate: unknown, _signal?: AbortSignal) => ({
      externalId: 'ats-1',
      sent: { fields: {}, children: {} },
      complete: false,
    }));
    const update = jest.fn(
      async (
        _id: string,
        _candidate: unknown,
        sent: { fields: object; children: object },
        checkpoint: (sent: object) => Promise<void>,
        _signal?: AbortSignal,
      ) => {
        const state = { ...sent, children: { 'work:x': await childCreates() } };
        await checkpoint(state);
        return state;
      },
    );
    let refusals = 2;
    const saveSent = jest.fn(async () => {
      if (refusals-- > 0) throw new Error('Connection terminated unexpectedly');
    });
    const sut = new CandidateSyncService(
      { forAccount: async () => [connector('c1', 'connected')] } as unknown as ConnectorDirectory,
      { for: () => ({ findExisting: async () => undefined, create, update }) } as unknown as CandidateSinks,
      {
        claimOrFind: () => ({ found: () => ({ erased: false, claimed: true }) }),
        link: async () => undefined,
        saveSent,
        applied: async () => undefined,
      } as unknown as CandidateLinkRepository,
      {
        runBy: (claim: { found(): unknown }, work: (l: Lease, found: unknown) => Promise<unknown>) =>
          work(lease, claim.found()),
      } as unknown as CandidateLocks,
      { candidateSynced: async () => undefined } as unknown as SyncedEvents,
      new FieldHasher('test-key'),
      {} as ErasedCandidates,
      new AtsSystems(atsRegistry),
    );
    await sut.sync(event);
    expect(childCreates).toHaveBeenCalledTimes(1);
    expect(saveSent).toHaveBeenCalledTimes(3);
    // With the event's time: an older event is stale once part of this one is in the ATS.
    expect(saveSent).toHaveBeenLastCalledWith(
      { connectorId: 'c1', candidateId: 'cand-1' },
      { sent: expect.anything(), occurredAt: event.occurredAt, fence: 7 },
    );
    expect(create.mock.calls[0]?.[1]).toBe(lease.signal);
    expect(update.mock.calls[0]?.[4]).toBe(lease.signal);
  });
});
