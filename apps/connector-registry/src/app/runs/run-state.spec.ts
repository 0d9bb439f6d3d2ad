import { EMPTY_COUNTS, nextRunState, type RunState } from './run-state';
import type { RunEntity } from './run.entity';
import { toRunView } from './run.view';

const at = new Date('2026-01-01T10:00:00Z');
const later = new Date('2026-01-01T10:05:00Z');
const queued: RunState = {
  status: 'queued',
  counts: EMPTY_COUNTS,
  apiCalls: 0,
  errors: [],
  warnings: [],
  startedAt: null,
  finishedAt: null,
};
const progress = (fetched: number, apiCalls: number, when = at) =>
  ({ kind: 'progress', counts: { fetched, upserted: 1, unchanged: 0 }, apiCalls, at: when }) as const;
const completed = { kind: 'completed', status: 'succeeded', apiCalls: 9, at: later } as const;
const finalCounts = { fetched: 10, upserted: 4, unchanged: 6, closed: 1 };

describe(nextRunState.name, () => {
  it('starts running on the first progress, keeping when it started', () => {
    const running = nextRunState(queued, progress(5, 3));
    expect(running).toMatchObject({ status: 'running', counts: { fetched: 5, closed: 0 }, startedAt: at });
    expect(nextRunState(running!, progress(8, 4, later))).toMatchObject({ startedAt: at, apiCalls: 4 });
  });

  it('never lets an out-of-order progress lower the counts', () => {
    const running = nextRunState(queued, progress(8, 6))!;
    expect(nextRunState(running, progress(5, 3))).toMatchObject({ counts: { fetched: 8 }, apiCalls: 6 });
  });

  it('completes with the final status and counts', () => {
    const running = nextRunState(queued, progress(5, 3))!;
    expect(nextRunState(running, { ...completed, counts: finalCounts })).toEqual({
      ...running,
      status: 'succeeded',
      counts: finalCounts,
      apiCalls: 9,
      finishedAt: later,
      nextRunAt: null,
    });
  });

  it("keeps when the connector's next scheduled run is due, as the run ended", () => {
    const nextRunAt = new Date('2026-01-01T10:20:00Z');
    const done = nextRunState(queued, { ...completed, counts: finalCounts, nextRunAt });
    expect(done).toMatchObject({ status: 'succeeded', nextRunAt });
  });

  it('completes straight from queued (no progress seen)', () => {
    const done = nextRunState(queued, { ...completed, status: 'failed', counts: finalCounts });
    expect(done).toMatchObject({ status: 'failed', startedAt: later, finishedAt: later });
  });

  it('ignores anything after the run finished: a late progress or a second completion', () => {
    const done = nextRunState(queued, { ...completed, counts: finalCounts })!;
    expect(nextRunState(done, progress(99, 99))).toBeUndefined();
    expect(nextRunState(done, { ...completed, status: 'failed', counts: EMPTY_COUNTS })).toBeUndefined();
    expect(nextRunState(done, { kind: 'request_failed', reason: 'x', at })).toBeUndefined();
  });

  it('ignores a completion whose status is not final', () => {
    expect(nextRunState(queued, { ...completed, status: 'running', counts: finalCounts })).toBeUndefined();
  });

  it('fails a run whose request could not be sent, with the reason', () => {
    expect(nextRunState(queued, { kind: 'request_failed', reason: 'broker down', at })).toMatchObject({
      status: 'failed',
      errors: ['broker down'],
      finishedAt: at,
    });
  });

  it('keeps the warnings a completed run reports, and none when it reports none', () => {
    const warning = { code: 'UNKNOWN_STATUSES', message: 'ATS-A does not offer “Advertised”.' };
    const counts = { fetched: 1, upserted: 1, unchanged: 0, closed: 0 };
    const done = nextRunState(queued, {
      kind: 'completed',
      status: 'succeeded',
      counts,
      apiCalls: 3,
      warnings: [warning],
      at,
    });
    expect(done).toMatchObject({ status: 'succeeded', warnings: [warning] });
    expect(
      nextRunState(queued, { kind: 'completed', status: 'succeeded', counts, apiCalls: 3, at })?.warnings,
    ).toEqual([]);
  });
});

describe('a run waiting for ATS budget', () => {
  it('shows until when as progress, and forgets it when the run goes on or ends', () => {
    const at = new Date('2026-11-21T10:00:00Z');
    const until = new Date('2026-11-22T00:00:00Z');
    const queued = {
      status: 'queued' as const,
      counts: { ...EMPTY_COUNTS },
      apiCalls: 0,
      errors: [],
      warnings: [],
      startedAt: null,
      finishedAt: null,
    };
    const counts = { fetched: 100, upserted: 10, unchanged: 90 };
    const waiting = nextRunState(queued, { kind: 'progress', counts, apiCalls: 7, at, waitingUntil: until });
    expect(waiting).toMatchObject({ status: 'running', waitingUntil: until, waitingFor: 'budget' });
    const forAts = nextRunState(queued, {
      kind: 'progress',
      counts,
      apiCalls: 7,
      at,
      waitingUntil: until,
      waitingFor: 'ats',
    });
    expect(forAts).toMatchObject({ waitingUntil: until, waitingFor: 'ats' });
    expect(toRunView({ ...runEntity(), ...forAts! } as RunEntity)).toMatchObject({
      waitingForAtsUntil: until.toISOString(),
      progress: expect.stringContaining('waiting for this ATS'),
    });
    expect(toRunView({ ...runEntity(), ...waiting! } as RunEntity)).toMatchObject({
      waitingForBudgetUntil: until.toISOString(),
      progress: expect.stringContaining('waiting for ATS budget'),
    });
    const going = nextRunState(waiting!, { kind: 'progress', counts, apiCalls: 8, at });
    expect(going).toMatchObject({ status: 'running', waitingUntil: null, waitingFor: null });
    const done = nextRunState(waiting!, {
      kind: 'completed',
      status: 'succeeded',
      counts: { ...counts, closed: 0 },
      apiCalls: 9,
      at,
    });
    expect(done).toMatchObject({ status: 'succeeded', waitingUntil: null });
  });
});

/** A run row as the admin API reads it (the state fields are laid over it). */
function runEntity(): Partial<RunEntity> {
  return { id: 'run-1', connectorId: 'c-1', mode: 'incremental', queuedAt: new Date('2026-11-29T10:00:00Z') };
}
