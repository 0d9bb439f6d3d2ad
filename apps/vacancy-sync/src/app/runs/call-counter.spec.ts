import { CallCounter } from './call-counter';

describe(CallCounter.name, () => {
  it('tells what has not been written yet', () => {
    const calls = new CallCounter();
    calls.count();
    calls.count();
    expect(calls.pending()).toBe(2);
    calls.markWritten(2);
    calls.count();
    expect(calls.pending()).toBe(1);
  });
});
