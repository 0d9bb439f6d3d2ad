import { DEFAULT_RETRY_DELAYS_MS } from '@connector/messaging';
import { CHAOS_RETRY_DELAYS_MS, KILL_HOLD_MS } from './retry-ladder';
import { SCENARIOS } from './scenarios';

/** When the last try before the final one starts, counted from the first. */
const beforeLastTry = (delays: readonly number[]) => delays.slice(0, -1).reduce((sum, d) => sum + d, 0);

describe('the chaos retry ladder', () => {
  it('still tries a candidate’s application or document after every kill of a scenario held it up', () => {
    const kills = Math.max(
      ...SCENARIOS.map((s) => s.faults.filter((f) => f.label.startsWith('kill -9')).length),
    );
    expect(kills).toBeGreaterThan(0);
    // A try left after the holds: the candidate, free again, is created while its dependents still wait.
    expect(beforeLastTry(CHAOS_RETRY_DELAYS_MS)).toBeGreaterThanOrEqual(kills * KILL_HOLD_MS);
  });

  it('is shorter than production’s, as it must be for a scenario to settle in minutes', () => {
    const total = (delays: readonly number[]) => delays.reduce((sum, d) => sum + d, 0);
    expect(total(CHAOS_RETRY_DELAYS_MS)).toBeLessThan(total(DEFAULT_RETRY_DELAYS_MS) / 10);
    // Production outlasts a kill's hold by its third try.
    expect(total(DEFAULT_RETRY_DELAYS_MS.slice(0, 3))).toBeGreaterThan(2 * KILL_HOLD_MS);
  });
});
