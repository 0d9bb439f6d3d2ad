import { decideRunMode, INCREMENTAL_OVERLAP_MS } from './run-mode';

describe(decideRunMode.name, () => {
  const now = new Date('2026-11-21T12:00:00Z');
  const connectorId = 'conn-1';
  const hoursAgo = (h: number) => new Date(now.getTime() - h * 3_600_000);

  it('lists everything the first time, and when asked for a full run', () => {
    expect(decideRunMode({ connectorId, fullSyncEveryHours: 24, now })).toEqual({ mode: 'full' });
    expect(
      decideRunMode({
        connectorId,
        requested: 'incremental',
        fullSyncEveryHours: 24,
        now,
        lastSuccessStartedAt: undefined,
        lastFullStartedAt: undefined,
      }),
    ).toEqual({ mode: 'full' });
    expect(
      decideRunMode({
        connectorId,
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
        connectorId,
        lastSuccessStartedAt: hoursAgo(1),
        lastFullStartedAt: hoursAgo(5),
        fullSyncEveryHours: 24,
        now,
      }),
    ).toEqual({ mode: 'incremental', since: new Date(hoursAgo(1).getTime() - INCREMENTAL_OVERLAP_MS) });
  });

  it('lists everything again once a full-sync period has passed since the last full listing', () => {
    const inputs = { connectorId, lastSuccessStartedAt: hoursAgo(1), lastFullStartedAt: hoursAgo(25), now };
    expect(decideRunMode({ ...inputs, fullSyncEveryHours: 24 })).toEqual({ mode: 'full' });
    // …unless the request says incremental explicitly.
    expect(decideRunMode({ ...inputs, fullSyncEveryHours: 24, requested: 'incremental' }).mode).toBe(
      'incremental',
    );
  });
});
