import { EventSubscriptionStore, type EntityEvent } from './event-subscription.store';
import { JobOrderStore } from './job-order.store';

const SUB = { type: 'entity', names: 'JobOrder', eventTypes: 'INSERTED,UPDATED,DELETED' };
const DAY = 24 * 60 * 60 * 1000;

function setup(options: { max?: number; ttlMs?: number } = {}) {
  let now = 1_764_000_000_000;
  const clock = { advance: (ms: number) => (now += ms), now: () => now };
  const events = new EventSubscriptionStore(options, 44, () => now);
  const jobs = new JobOrderStore({ jobs: 50, seed: 3 });
  jobs.onChange = (c) => events.record(c);
  return { events, jobs, clock };
}

describe(EventSubscriptionStore.name, () => {
  it('answers a subscribe as the vendor documents it and sees only changes made after it', () => {
    const { events, jobs } = setup();
    jobs.update(1, { title: 'before the subscription' });
    expect(events.subscribe('jobs', SUB)).toEqual({
      lastRequestId: 0,
      subscriptionId: 'jobs',
      createdOn: expect.any(Number),
      jmsSelector: expect.stringContaining("BhEntityEventType IN ('INSERTED','UPDATED','DELETED')"),
    });
    expect(events.read('jobs', 100)).toEqual({});
  });

  it('turns insert, update, close, soft delete and hard delete into the right events', () => {
    const { events, jobs } = setup();
    events.subscribe('jobs', SUB);
    const added = jobs.add({ title: 'Nurse' });
    jobs.update(2, { title: 'Renamed', numOpenings: 7 });
    jobs.close(3);
    jobs.close(4, { deleted: true });
    jobs.remove(5);
    const batch = events.read('jobs', 100);
    const byEntity = (id: number): EntityEvent | undefined => batch.events?.find((e) => e.entityId === id);
    expect(batch.requestId).toBe(1);
    expect(batch.events).toHaveLength(5);
    expect(byEntity(added.id)).toEqual({
      eventId: expect.stringMatching(/^ID:JBM-\d+$/),
      eventType: 'ENTITY',
      entityName: 'JobOrder',
      entityId: added.id,
      entityEventType: 'INSERTED',
      eventTimestamp: expect.any(Number),
      eventMetadata: { PERSON_ID: '1', TRANSACTION_ID: expect.any(String) },
    });
    expect(byEntity(2)).toMatchObject({
      entityEventType: 'UPDATED',
      updatedProperties: ['numOpenings', 'title'],
    });
    expect(byEntity(3)?.entityEventType).toBe('UPDATED');
    expect(byEntity(3)?.updatedProperties).toEqual(expect.arrayContaining(['isOpen', 'dateClosed']));
    // A soft delete is an update of isDeleted (rest-api-docs _entity.md); only a hard delete is DELETED.
    expect(byEntity(4)).toMatchObject({ entityEventType: 'UPDATED', updatedProperties: ['isDeleted'] });
    expect(byEntity(5)).toMatchObject({ entityEventType: 'DELETED' });
    expect(byEntity(5)).not.toHaveProperty('updatedProperties');
    expect(jobs.get(5)).toBeUndefined();
  });

  it('sends no event for a change that changes nothing, and only the event types asked for', () => {
    const { events, jobs } = setup();
    events.subscribe('deletes', { ...SUB, eventTypes: 'DELETED' });
    const title = jobs.get(6)?.title;
    jobs.update(6, { title });
    jobs.update(7, { title: 'changed' });
    jobs.remove(8);
    expect(events.read('deletes', 100).events?.map((e) => [e.entityId, e.entityEventType])).toEqual([
      [8, 'DELETED'],
    ]);
  });

  it('removes what it reads, caps a read at 100, and keeps the order of one entity within a mixed batch', () => {
    const { events, jobs } = setup();
    events.subscribe('jobs', SUB);
    for (let i = 0; i < 130; i++) jobs.update(1 + (i % 10), { numOpenings: 1000 + i });
    const first = events.read('jobs', 500);
    expect(first.events).toHaveLength(100);
    const second = events.read('jobs', 500);
    expect(second.requestId).toBe(2);
    expect(second.events).toHaveLength(30);
    expect(events.read('jobs', 100)).toEqual({});
    const all = [...(first.events ?? []), ...(second.events ?? [])];
    expect(new Set(all.map((e) => e.eventId)).size).toBe(130);
    for (let id = 1; id <= 10; id++) {
      const seq = first.events?.filter((e) => e.entityId === id).map((e) => Number(e.eventId.slice(7)));
      expect(seq).toEqual([...(seq ?? [])].sort((a, b) => a - b));
    }
    // Across entities the vendor promises no order: the sandbox mixes them.
    const ids = first.events?.map((e) => Number(e.eventId.slice(7))) ?? [];
    expect(ids).not.toEqual([...ids].sort((a, b) => a - b));
  });

  it('reads the last batch again by its requestId; an older one has nothing', () => {
    const { events, jobs } = setup();
    events.subscribe('jobs', SUB);
    jobs.update(1, { title: 'a' });
    const one = events.read('jobs', 10);
    jobs.update(2, { title: 'b' });
    const two = events.read('jobs', 10);
    expect(events.reread('jobs', 2)).toEqual(two);
    expect(events.reread('jobs', 1)).toEqual({});
    expect(one.requestId).toBe(1);
    expect(events.lastRequestId('jobs')).toBe(2);
  });

  it('refuses the 16th subscription, not a re-subscribe, and re-subscribing keeps the queue', () => {
    const { events, jobs } = setup();
    for (let i = 0; i < 15; i++) events.subscribe(`s${i}`, SUB);
    expect(() => events.subscribe('s15', SUB)).toThrow(/At most 15/);
    jobs.update(1, { title: 'x' });
    expect(events.subscribe('s0', { ...SUB, eventTypes: 'UPDATED' }).subscriptionId).toBe('s0');
    expect(events.read('s0', 10).events).toHaveLength(1);
    expect(events.unsubscribe('s1')).toBe(true);
    expect(events.unsubscribe('s1')).toBe(false);
    expect(events.subscribe('s15', SUB).lastRequestId).toBe(0);
  });

  it('validates the subscribe parameters with the vendor error body', () => {
    const { events } = setup();
    expect(() => events.subscribe('x', { ...SUB, type: 'jobMatchSearch' })).toThrow(/type/);
    expect(() => events.subscribe('x', { ...SUB, names: '' })).toThrow(/names/);
    expect(() => events.subscribe('x', { ...SUB, names: 'Candidate' })).toThrow(/Candidate/);
    expect(() => events.subscribe('x', { ...SUB, eventTypes: 'CREATED' })).toThrow(/CREATED/);
  });

  it('purges unread events after the TTL and drops a subscription not read within it', () => {
    const { events, jobs, clock } = setup({ ttlMs: 7 * DAY });
    events.subscribe('kept', SUB);
    events.subscribe('idle', SUB);
    jobs.update(1, { title: 'old' });
    clock.advance(6 * DAY);
    events.read('kept', 1);
    jobs.update(2, { title: 'new' });
    clock.advance(2 * DAY);
    // 'kept' was read 2 days ago: alive, its old events gone with the read, the new one still there.
    expect(events.read('kept', 100).events?.map((e) => e.entityId)).toEqual([2]);
    // 'idle' was never read for 8 days: gone, and it answers as unknown.
    expect(() => events.read('idle', 100)).toThrow(expect.objectContaining({ status: 404 }));
    expect(() => events.reread('idle', 1)).toThrow(expect.objectContaining({ status: 404 }));
    expect(events.list().map((s) => s.subscriptionId)).toEqual(['kept']);
  });

  it('purges events older than the TTL even on a subscription that is read', () => {
    const { events, jobs, clock } = setup({ ttlMs: 1000 });
    events.subscribe('s', SUB);
    jobs.update(1, { title: 'stale' });
    clock.advance(600);
    events.read('s', 1);
    jobs.update(2, { title: 'x' });
    jobs.update(3, { title: 'y' });
    clock.advance(600);
    expect(events.read('s', 1).events?.map((e) => e.entityId)).toHaveLength(1);
    clock.advance(600);
    expect(events.read('s', 100)).toEqual({});
  });

  it('answers an unknown subscription with a 404 in the vendor error body', () => {
    const { events } = setup();
    try {
      events.read('nope', 10);
      throw new Error('read of an unknown subscription did not throw');
    } catch (err) {
      expect((err as { toBody(): unknown }).toBody()).toEqual({
        errorMessage: "Subscription 'nope' not found",
        errorMessageKey: 'errors.subscriptionNotFound',
        errorCode: 404,
      });
    }
  });
});
