import { firstSlotAfter, slotFraction } from './run-schedule';
import { scheduleForOptions } from './options-schedule';

describe(scheduleForOptions.name, () => {
  const now = new Date(Date.UTC(2026, 10, 29, 9, 0, 0));
  const ids = Array.from({ length: 1_000 }, (_, i) => `conn-${i}`);
  const of = (options: Record<string, unknown>, feedMode?: 'events' | 'polling', connectorId = 'conn-1') =>
    scheduleForOptions({ connectorId, options, feedMode, minPollSeconds: 5, now });

  it('reads the run interval and the event poll period from the options', () => {
    expect(of({ syncIntervalMinutes: 5, eventPollSeconds: 2 })).toMatchObject({
      intervalSeconds: 300,
      pollSeconds: 5, // the floor
    });
    expect(of({ syncIntervalMinutes: 5, eventPollSeconds: 30 })).toMatchObject({ pollSeconds: 30 });
    expect(of({})).toMatchObject({ intervalSeconds: 900, pollSeconds: 60 });
  });

  it('lengthens the run interval while the event feed is healthy', () => {
    expect(of({ syncIntervalMinutes: 5 }, 'events').intervalSeconds).toBe(3_600);
    expect(of({ syncIntervalMinutes: 5 }, 'polling').intervalSeconds).toBe(300);
  });

  it('brings the next read and run within one new period of the change, whatever the old period was', () => {
    for (const id of ids.slice(0, 50)) {
      const schedule = of({ syncIntervalMinutes: 5, eventPollSeconds: 10 }, undefined, id);
      const readIn = schedule.nextReadAt.getTime() - now.getTime();
      const runIn = schedule.nextRunAt.getTime() - now.getTime();
      expect(readIn).toBeGreaterThan(0);
      expect(readIn).toBeLessThanOrEqual(10_000);
      expect(runIn).toBeGreaterThan(0);
      expect(runIn).toBeLessThanOrEqual(300_000);
    }
  });

  it('spreads a fleet whose period changed at once over the new period (no herd)', () => {
    const buckets = new Array<number>(10).fill(0);
    for (const id of ids) {
      const { nextReadAt } = of({ eventPollSeconds: 60 }, 'events', id);
      buckets[Math.floor(((nextReadAt.getTime() - now.getTime() - 1) / 60_000) * 10)]++;
    }
    expect(Math.min(...buckets)).toBeGreaterThan(60);
    expect(Math.max(...buckets)).toBeLessThan(140);
  });
});

describe(firstSlotAfter.name, () => {
  it("is the connector's own place in the period, strictly after now and at most one period away", () => {
    const now = new Date(Date.UTC(2026, 10, 29, 9, 0, 0));
    const slot = firstSlotAfter({ connectorId: 'conn-7', periodSeconds: 60, now });
    expect(slot.getTime()).toBeGreaterThan(now.getTime());
    expect(slot.getTime() - now.getTime()).toBeLessThanOrEqual(60_000);
    expect((slot.getTime() % 60_000) / 60_000).toBeCloseTo(slotFraction('conn-7'), 3);
    // Exactly on its slot: the next one, a whole period on.
    expect(firstSlotAfter({ connectorId: 'conn-7', periodSeconds: 60, now: slot })).toEqual(
      new Date(slot.getTime() + 60_000),
    );
  });
});
