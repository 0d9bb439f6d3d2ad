import { Logger } from '@nestjs/common';
import { runScenario, scenarioNamed, type ScenarioResult } from '@connector/chaos';

/**
 * A short subset of the chaos suite (`npm run chaos`, docs/reliability.md), through the same scenario code:
 * a small burst of real work through the services (two replicas each), faults mid-flight, and the
 * invariants checked from outside: every effect once in the ATS, nothing lost, no refresh token spent
 * twice, no connector locked out, everything healthy again. The two scenarios run side by side, each in
 * its own database and vhost: most of the kill scenario is waiting for the dead process's leases to lapse.
 */
const EVENTS = 60;
const SCENARIOS = ['kill-candidate-sync', 'ats-faults-mixed'] as const;

describe('chaos (short subset)', () => {
  const results = new Map<string, ScenarioResult>();

  beforeAll(async () => {
    Logger.overrideLogger(['error']);
    const runs = await Promise.all(
      SCENARIOS.map((name) =>
        runScenario(scenarioNamed(name), {
          seed: 15,
          events: EVENTS,
          workers: scenarioNamed(name).needs,
          log: () => undefined,
        }),
      ),
    );
    for (const result of runs) results.set(result.scenario, result);
  }, 400_000);

  const expectHeld = (result: ScenarioResult | undefined) => {
    expect(result).toBeDefined();
    if (!result) return;
    expect(result.violations).toEqual([]);
    expect({ lost: result.lostLabels, duplicated: result.duplicatedLabels }).toEqual({
      lost: [],
      duplicated: [],
    });
    expect(result.events).toBeGreaterThanOrEqual(EVENTS);
    expect(result.recovery.settledMs).not.toBeNull();
    expect(result.recovery.healthyMs).not.toBeNull();
  };

  it('kill -9 of candidate-sync twice during a burst: nothing lost, nothing twice', () => {
    const result = results.get('kill-candidate-sync');
    expectHeld(result);
    expect(result?.faults).toEqual(['kill -9 candidate-sync', 'kill -9 candidate-sync']);
  });

  it('writes that time out after being applied, then an ATS 5xx and a 429 storm', () => {
    const result = results.get('ats-faults-mixed');
    expectHeld(result);
    expect(result?.faults).toHaveLength(3);
    // The armed timeouts did fire: the ATS kept writes whose answers never came.
    expect(result?.notes.join('; ')).toMatch(/\b[1-9]\d* writes applied and never answered/);
  });
});
