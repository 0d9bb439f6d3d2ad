import { SystemBreakers } from './system-breakers';

describe(SystemBreakers.name, () => {
  let now = 0;
  const breakers = () =>
    new SystemBreakers({ failures: 3, coolDownMs: 5_000, maxCoolDownMs: 20_000, now: () => now });
  const fail = (b: SystemBreakers, key = 's1') =>
    b.record(key, b.admit(key) as { probe: boolean }, 'system-fault');

  beforeEach(() => (now = 1_000_000));

  it('opens after consecutive system faults and turns work away until the cool-down ends', () => {
    const b = breakers();
    fail(b);
    fail(b);
    expect(b.admit('s1')).toEqual({ open: false, probe: false });
    fail(b);
    expect(b.admit('s1')).toEqual({ open: true, until: new Date(now + 5_000) });
    expect(b.admit('s2')).toEqual({ open: false, probe: false });
    expect(b.openCount()).toBe(1);
  });

  it('counts only consecutive faults: an answer in between starts again (and forgets the system)', () => {
    const b = breakers();
    fail(b);
    fail(b);
    b.record('s1', b.admit('s1') as { probe: boolean }, 'answered');
    expect(b.size()).toBe(0);
    fail(b);
    fail(b);
    expect(b.admit('s1').open).toBe(false);
  });

  it('lets one probe through after the cool-down; its answer closes, its fault doubles the cool-down', () => {
    const b = breakers();
    for (let i = 0; i < 3; i += 1) fail(b);
    now += 5_000;
    const probe = b.admit('s1');
    expect(probe).toEqual({ open: false, probe: true });
    expect(b.admit('s1').open).toBe(true); // one probe at a time
    b.record('s1', { probe: true }, 'system-fault');
    expect(b.admit('s1')).toEqual({ open: true, until: new Date(now + 10_000) });
    now += 10_000;
    b.admit('s1');
    b.record('s1', { probe: true }, 'system-fault');
    now += 20_000;
    b.admit('s1');
    b.record('s1', { probe: true }, 'system-fault');
    expect(b.admit('s1')).toEqual({ open: true, until: new Date(now + 20_000) }); // capped
    now += 20_000;
    expect(b.admit('s1')).toEqual({ open: false, probe: true });
    b.record('s1', { probe: true }, 'answered');
    expect(b.admit('s1')).toEqual({ open: false, probe: false });
    expect(b.size()).toBe(0);
  });

  it('hands the probe to the next comer when the probe learnt nothing (a lock, a lost lease)', () => {
    const b = breakers();
    for (let i = 0; i < 3; i += 1) fail(b);
    now += 5_000;
    b.admit('s1');
    b.record('s1', { probe: true }, 'unknown');
    expect(b.admit('s1')).toEqual({ open: false, probe: true });
  });

  it('is not held open longer by calls that were already in flight when it opened', () => {
    const b = breakers();
    const inFlight = [b.admit('s1'), b.admit('s1'), b.admit('s1'), b.admit('s1')] as Array<{
      probe: boolean;
    }>;
    inFlight.forEach((admission) => b.record('s1', admission, 'system-fault'));
    expect(b.admit('s1')).toEqual({ open: true, until: new Date(now + 5_000) });
  });

  it('keeps nothing of 10 000 systems that answer, and sweeps the idle ones that failed', () => {
    const b = breakers();
    for (let i = 0; i < 10_000; i += 1) b.record(`s${i}`, b.admit(`s${i}`) as { probe: boolean }, 'answered');
    expect(b.size()).toBe(0);
    for (let i = 0; i < 10_000; i += 1) fail(b, `s${i}`);
    expect(b.size()).toBe(10_000);
    now += 41_000 + 60_000;
    b.admit('other');
    expect(b.size()).toBe(0);
  });
});
