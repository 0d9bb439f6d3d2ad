import { syncOptionsOf } from './sync-options';

describe(syncOptionsOf.name, () => {
  it("fills in the defaults, the open statuses the connector's ATS's", () => {
    expect(syncOptionsOf({}, ['Active'])).toEqual({
      syncIntervalMinutes: 15,
      fullSyncEveryHours: 24,
      openStatuses: ['Active'],
    });
    // An ATS whose source does not filter by status has none: never another ATS's.
    expect(syncOptionsOf({}).openStatuses).toEqual([]);
  });

  it('takes usable values and ignores unusable ones', () => {
    expect(
      syncOptionsOf({ syncIntervalMinutes: '5', fullSyncEveryHours: -1, openStatuses: ['Active', 3, ' '] }),
    ).toEqual({ syncIntervalMinutes: 5, fullSyncEveryHours: 24, openStatuses: ['Active'] });
  });
});
