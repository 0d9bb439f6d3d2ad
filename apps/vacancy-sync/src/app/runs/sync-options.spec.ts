import { syncOptionsOf } from './sync-options';

describe(syncOptionsOf.name, () => {
  it('fills in the defaults', () => {
    expect(syncOptionsOf({})).toEqual({
      syncIntervalMinutes: 15,
      fullSyncEveryHours: 24,
      openStatuses: ['Open', 'Live'],
    });
  });

  it('takes usable values and ignores unusable ones', () => {
    expect(
      syncOptionsOf({ syncIntervalMinutes: '5', fullSyncEveryHours: -1, openStatuses: ['Active', 3, ' '] }),
    ).toEqual({ syncIntervalMinutes: 5, fullSyncEveryHours: 24, openStatuses: ['Active'] });
  });
});
