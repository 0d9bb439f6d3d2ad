import { type DueConnector, fullListingDue, nextSlot, pickDue, slotFraction } from './run-schedule';

describe('run schedule', () => {
  const ids = Array.from({ length: 1_000 }, (_, i) => `conn-${i}`);

  describe(slotFraction.name, () => {
    it('gives a connector the same place every time, and a fleet places spread over the period', () => {
      expect(slotFraction('conn-1')).toBe(slotFraction('conn-1'));
      const buckets = new Array<number>(10).fill(0);
      for (const id of ids) buckets[Math.floor(slotFraction(id) * 10)]++;
      // 1 000 connectors over ten tenths of the interval: none empty, none holding a herd.
      expect(Math.min(...buckets)).toBeGreaterThan(60);
      expect(Math.max(...buckets)).toBeLessThan(140);
    });
  });

  describe(nextSlot.name, () => {
    const intervalSeconds = 60;
    const slotOf = (connectorId: string, minute: number) =>
      new Date(Date.UTC(2026, 10, 27, 12, minute) + Math.floor(slotFraction(connectorId) * 60_000));

    it('follows a run that started on time one interval after its scheduled time', () => {
      const scheduledAt = slotOf('conn-1', 0);
      const now = new Date(scheduledAt.getTime() + 2_000);
      expect(nextSlot({ connectorId: 'conn-1', intervalSeconds, scheduledAt, now })).toEqual(
        slotOf('conn-1', 1),
      );
    });

    it('takes a time a little before the slot as the slot (clocks differ), not as a run to repeat', () => {
      const scheduledAt = new Date(slotOf('conn-1', 0).getTime() - 50);
      const now = new Date(scheduledAt.getTime() + 10);
      expect(nextSlot({ connectorId: 'conn-1', intervalSeconds, scheduledAt, now })).toEqual(
        slotOf('conn-1', 1),
      );
    });

    it('keeps the slot for a late run, so the lateness shows as lag instead of stretching the interval', () => {
      const scheduledAt = slotOf('conn-1', 0);
      const now = new Date(scheduledAt.getTime() + 45_000);
      expect(nextSlot({ connectorId: 'conn-1', intervalSeconds, scheduledAt, now })).toEqual(
        slotOf('conn-1', 1),
      );
    });

    it('skips the slots a lagging scheduler missed instead of queueing them', () => {
      const scheduledAt = slotOf('conn-1', 0);
      const now = new Date(scheduledAt.getTime() + 150_000);
      expect(nextSlot({ connectorId: 'conn-1', intervalSeconds, scheduledAt, now })).toEqual(
        slotOf('conn-1', 3),
      );
    });

    it('moves a first sync onto the slot, a tenth of an interval to an interval and a tenth later', () => {
      for (const connectorId of ids.slice(0, 50)) {
        const now = new Date(Date.UTC(2026, 10, 27, 12, 0, 7, 300));
        const next = nextSlot({ connectorId, intervalSeconds, scheduledAt: now, now });
        const wait = next.getTime() - now.getTime();
        expect(wait).toBeGreaterThanOrEqual(6_000);
        expect(wait).toBeLessThanOrEqual(66_000);
        // On the connector's slot: its next run after that follows one interval later.
        expect(nextSlot({ connectorId, intervalSeconds, scheduledAt: next, now: next })).toEqual(
          new Date(next.getTime() + 60_000),
        );
      }
    });
  });

  describe(fullListingDue.name, () => {
    const now = new Date('2026-11-27T12:00:00Z');
    const hoursAgo = (h: number) => new Date(now.getTime() - h * 3_600_000);

    it('is due once per period, and never within half a period of the last full listing', () => {
      for (const connectorId of ids.slice(0, 20)) {
        expect(fullListingDue({ connectorId, lastFullStartedAt: hoursAgo(11), everyHours: 24, now })).toBe(
          false,
        );
        expect(fullListingDue({ connectorId, lastFullStartedAt: hoursAgo(24), everyHours: 24, now })).toBe(
          true,
        );
      }
    });

    it('spreads the full listings of connectors created together over the day', () => {
      // A fleet whose last full listings all started at midnight: each is due again at its own hour.
      const lastFullStartedAt = new Date('2026-11-27T00:00:00Z');
      const dueHour = (connectorId: string) => {
        for (let h = 12; h <= 36; h++) {
          const at = new Date(lastFullStartedAt.getTime() + h * 3_600_000);
          if (fullListingDue({ connectorId, lastFullStartedAt, everyHours: 24, now: at })) return h;
        }
        throw new Error(`${connectorId}: no full listing due within 36 h`);
      };
      const hours = new Set(ids.slice(0, 200).map(dueHour));
      expect(hours.size).toBeGreaterThan(12);
    });
  });

  describe(pickDue.name, () => {
    const at = (s: number) => new Date(Date.UTC(2026, 10, 27, 12, 0, s));
    const due = (connectorId: string, s: number, extra: Partial<DueConnector> = {}): DueConnector => ({
      connectorId,
      accountId: `acct-${connectorId}`,
      systemKey: `sys-${connectorId}`,
      firstSync: false,
      nextRunAt: at(s),
      ...extra,
    });
    const ids = (picked: DueConnector[]) => picked.map((p) => p.connectorId);
    /** No account at its cap. */
    const open = { perAccount: 100, busyAccounts: new Map<string, number>() };

    it('starts first syncs ahead of scheduled runs, then the longest overdue, up to the free slots', () => {
      const candidates = [due('a', 5), due('b', 1), due('new', 9, { firstSync: true }), due('c', 3)];
      expect(ids(pickDue(candidates, { free: 3, perSystem: 2, busy: new Map(), ...open }))).toEqual([
        'new',
        'b',
        'c',
      ]);
      expect(pickDue(candidates, { free: 0, perSystem: 2, busy: new Map(), ...open })).toEqual([]);
    });

    it('never runs more than the cap at once on one customer system, counting runs already going', () => {
      const shared = { systemKey: 'ats-a:https://acme.example' };
      const candidates = [due('a', 1, shared), due('b', 2, shared), due('c', 3, shared), due('d', 4)];
      expect(ids(pickDue(candidates, { free: 10, perSystem: 2, busy: new Map(), ...open }))).toEqual([
        'a',
        'b',
        'd',
      ]);
      const busy = new Map([['ats-a:https://acme.example', 2]]);
      expect(ids(pickDue(candidates, { free: 10, perSystem: 2, busy, ...open }))).toEqual(['d']);
    });

    it('never starts more than perAccount runs of one account, counting its runs going; the rest wait', () => {
      const mine = { accountId: 'acct-noisy' };
      const candidates = [due('a', 1, mine), due('b', 2, mine), due('c', 3, mine), due('d', 4)];
      const limits = { free: 10, perSystem: 2, busy: new Map(), perAccount: 2 };
      expect(ids(pickDue(candidates, { ...limits, busyAccounts: new Map() }))).toEqual(['a', 'b', 'd']);
      expect(ids(pickDue(candidates, { ...limits, busyAccounts: new Map([['acct-noisy', 1]]) }))).toEqual([
        'a',
        'd',
      ]);
      // One passed over for its system's cap takes none of its account's places.
      const sameSystem = [due('x', 1, { ...mine, systemKey: 's' }), due('y', 2, { ...mine, systemKey: 's' })];
      expect(
        ids(
          pickDue([...sameSystem, due('z', 3, mine)], { ...limits, perSystem: 1, busyAccounts: new Map() }),
        ),
      ).toEqual(['x', 'z']);
    });

    it('lets connectors whose system is not known yet go, each on its own', () => {
      const candidates = [due('a', 1, { systemKey: null }), due('b', 2, { systemKey: null })];
      expect(ids(pickDue(candidates, { free: 10, perSystem: 1, busy: new Map(), ...open }))).toEqual([
        'a',
        'b',
      ]);
    });
  });
});
