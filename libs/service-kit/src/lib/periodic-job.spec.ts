import { PeriodicJob } from './periodic-job';

describe(PeriodicJob.name, () => {
  const logger = { warn: jest.fn() };
  let job: PeriodicJob<number> | undefined;

  beforeEach(() => {
    jest.useFakeTimers();
    logger.warn.mockReset();
  });

  afterEach(() => {
    job?.stop();
    jest.useRealTimers();
  });

  it('ticks every interval from start until stop', async () => {
    const tick = jest.fn(async () => 1);
    job = new PeriodicJob(logger, 'counting', tick);
    job.start(1_000);
    expect(tick).not.toHaveBeenCalled();
    await jest.advanceTimersByTimeAsync(3_000);
    expect(tick).toHaveBeenCalledTimes(3);
    job.stop();
    await jest.advanceTimersByTimeAsync(5_000);
    expect(tick).toHaveBeenCalledTimes(3);
  });

  it('never runs a tick while the last one is still under way', async () => {
    let finish = () => undefined as void;
    const tick = jest.fn(() => new Promise<number>((resolve) => (finish = () => resolve(7))));
    job = new PeriodicJob(logger, 'slow work', tick);
    job.start(1_000);
    await jest.advanceTimersByTimeAsync(5_000);
    expect(tick).toHaveBeenCalledTimes(1);
    expect(await job.runOnce()).toBeUndefined();
    expect(tick).toHaveBeenCalledTimes(1);
    finish();
    await jest.advanceTimersByTimeAsync(1_000);
    expect(tick).toHaveBeenCalledTimes(2);
  });

  it('logs a failed tick, answers undefined and ticks again next time', async () => {
    const tick = jest.fn().mockRejectedValueOnce(new Error('database gone')).mockResolvedValue(2);
    job = new PeriodicJob(logger, 'the sweep', tick);
    expect(await job.runOnce()).toBeUndefined();
    expect(logger.warn).toHaveBeenCalledWith('the sweep failed: database gone');
    expect(await job.runOnce()).toBe(2);
  });
});
