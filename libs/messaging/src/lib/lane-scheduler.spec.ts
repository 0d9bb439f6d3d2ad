import { LaneScheduler, type Release } from './lane-scheduler';

/** Enters messages and records the order in which they get their slot. */
function harness(limits: { concurrency: number; perKeyConcurrency: number; perKeyBuffered: number }) {
  const scheduler = new LaneScheduler(limits);
  const started: string[] = [];
  const releases = new Map<string, Release>();
  const refused: string[] = [];
  const enter = (key: string, name: string) => {
    const slot = scheduler.enter(key);
    if (!slot) {
      refused.push(name);
      return;
    }
    void slot.then((release) => {
      if (!release) return;
      started.push(name);
      releases.set(name, release);
    });
  };
  const finish = async (name: string) => {
    const release = releases.get(name);
    if (!release) throw new Error(`${name} never started`);
    release();
    await flush();
  };
  return { scheduler, started, refused, enter, finish };
}

const flush = () => new Promise((resolve) => setImmediate(resolve));

describe(LaneScheduler.name, () => {
  it('gives freed slots to the waiting keys in turn, not in arrival order', async () => {
    const { started, enter, finish } = harness({ concurrency: 2, perKeyConcurrency: 2, perKeyBuffered: 10 });
    for (let i = 1; i <= 5; i += 1) enter('x', `x${i}`);
    enter('y', 'y1');
    enter('z', 'z1');
    enter('y', 'y2');
    await flush();
    expect(started).toEqual(['x1', 'x2']);

    await finish('x1');
    await finish('x2');
    await finish('x3');
    await finish('y1');
    // x, y, z each had a turn before x's bulk goes on; y's second message comes before x's fifth.
    expect(started).toEqual(['x1', 'x2', 'x3', 'y1', 'z1', 'x4']);
    await finish('z1');
    expect(started.slice(6)).toEqual(['y2']);
  });

  it('runs no more than perKeyConcurrency of one key, and lets other keys use the rest', async () => {
    const { scheduler, started, enter, finish } = harness({
      concurrency: 4,
      perKeyConcurrency: 2,
      perKeyBuffered: 10,
    });
    for (let i = 1; i <= 4; i += 1) enter('x', `x${i}`);
    await flush();
    expect(started).toEqual(['x1', 'x2']);
    expect(scheduler.stats()).toEqual({ running: 2, buffered: 2, lanesWaiting: 1 });

    enter('y', 'y1');
    await flush();
    expect(started).toEqual(['x1', 'x2', 'y1']);
    await finish('x1');
    expect(started).toEqual(['x1', 'x2', 'y1', 'x3']);
    expect(scheduler.stats()).toEqual({ running: 3, buffered: 1, lanesWaiting: 1 });
  });

  it("refuses a key's message once its lane holds perKeyBuffered, and only that key's", async () => {
    const { refused, enter } = harness({ concurrency: 1, perKeyConcurrency: 1, perKeyBuffered: 2 });
    for (let i = 1; i <= 5; i += 1) enter('x', `x${i}`);
    enter('y', 'y1');
    enter('y', 'y2');
    await flush();
    // x1 runs, x2 and x3 wait, x4 and x5 are refused; y's lane is its own.
    expect(refused).toEqual(['x4', 'x5']);
  });

  it('hands back every waiting message unstarted when closed, and starts nothing after', async () => {
    const { scheduler, started, enter, finish } = harness({
      concurrency: 1,
      perKeyConcurrency: 1,
      perKeyBuffered: 5,
    });
    const handedBack: Array<Release | undefined> = [];
    enter('x', 'x1');
    await flush();
    const waiting = scheduler.enter('x');
    if (!waiting) throw new Error('x2 was refused: its lane had room');
    void waiting.then((release) => handedBack.push(release));

    scheduler.close();
    await flush();
    expect(handedBack).toEqual([undefined]);
    await finish('x1');
    expect(started).toEqual(['x1']);
    expect(await scheduler.enter('y')).toBeUndefined();
    expect(scheduler.stats()).toEqual({ running: 0, buffered: 0, lanesWaiting: 0 });
  });

  it('forgets a key once it has nothing running or waiting (lanes stay as few as the buffer)', async () => {
    const { scheduler, enter, finish } = harness({ concurrency: 2, perKeyConcurrency: 1, perKeyBuffered: 5 });
    for (let i = 0; i < 1_000; i += 1) {
      enter(`acct_${i}`, `m${i}`);
      await flush();
      await finish(`m${i}`);
    }
    expect((scheduler as unknown as { lanes: Map<string, unknown> }).lanes.size).toBe(0);
  });

  it('a release called twice frees one slot only', async () => {
    const scheduler = new LaneScheduler({ concurrency: 1, perKeyConcurrency: 1, perKeyBuffered: 5 });
    const release = await scheduler.enter('x');
    const second = scheduler.enter('y');
    const third = scheduler.enter('z');
    release?.();
    release?.();
    await flush();
    expect(scheduler.stats()).toEqual({ running: 1, buffered: 1, lanesWaiting: 1 });
    expect(await second).toBeDefined();
    expect(third).toBeDefined();
  });
});
