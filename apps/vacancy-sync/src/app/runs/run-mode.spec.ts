import { decideRunMode, INCREMENTAL_OVERLAP_MS } from './run-mode';

describe(decideRunMode.name, () => {
  const now = new Date('2026-11-21T12:00:00Z');
  const hoursAgo = (h: number) => new Date(now.getTime() - h * 3_600_000);

  it('lists everything the first time, and when asked for a full run', () => {
    expect(decideRunMode({ fullSyncEveryHours: 24, now })).toEqual({ mode: 'full' });
    expect(
      decideRunMode({
        requested: 'incremental',
        fullSyncEveryHours: 24,
        now,
        lastSuccessStartedAt: undefined,
        lastFullStartedAt: undefined,
      }),
    ).toEqual({ mode: 'full' });
    expect(
      decideRunMode({
        requested: 'full',
        lastSuccessStartedAt: hoursAgo(1),
        lastFullStartedAt: hoursAgo(2),
        fullSyncEveryHours: 24,
        now,
      }),
    ).toEqual({ mode: 'full' });
  });

  it('is incremental from the last successful start minus the overlap while a full listing is recent', () => {
    expect(
      decideRunMode({
        lastSuccessStartedAt: hoursAgo(1),
        lastFullStartedAt: hoursAgo(5),
        fullSyncEveryHours: 24,
        now,
      }),
    ).toEqual({ mode: 'incremental', since: new Date(hoursAgo(1).getTime() - INCREMENTAL_OVERLAP_MS) });
  });

  it('lists everything again once the last full listing is older than the full-sync interval', () => {
    const inputs = { lastSuccessStartedAt: hoursAgo(1), lastFullStartedAt: hoursAgo(25), now };
    expect(decideRunMode({ ...inputs, fullSyncEveryHours: 24 })).toEqual({ mode: 'full' });
    // …unless the request says incremental explicitly.
    expect(decideRunMode({ ...inputs, fullSyncEveryHours: 24, requested: 'incremental' }).mode).toBe(
      'incremental',
    );
  });
});
