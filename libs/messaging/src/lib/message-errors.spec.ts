import {
  combinedFailure,
  DeferredMessageError,
  PermanentMessageError,
  TransientMessageError,
} from './message-errors';

describe(combinedFailure.name, () => {
  it('retries a message while any connector may still succeed, else dead-letters it', () => {
    const permanent = new PermanentMessageError('no', 'c1');
    const transient = new TransientMessageError('later', 'c2');
    expect(combinedFailure([permanent, transient])).toBe(transient);
    expect(combinedFailure([permanent])).toBe(permanent);
    expect(combinedFailure([])).toBeUndefined();
  });

  it('counts a real failure as an attempt before a wait for budget; else waits for the earliest budget', () => {
    const later = new DeferredMessageError('budget', new Date(Date.now() + 60_000), 'c1');
    const sooner = new DeferredMessageError('429', new Date(Date.now() + 5_000), 'c2');
    const transient = new TransientMessageError('503', 'c3');
    const permanent = new PermanentMessageError('no', 'c4');
    expect(combinedFailure([later, transient])).toBe(transient);
    expect(combinedFailure([later, sooner, permanent])).toBe(sooner);
  });

  it('keeps the longest pause a failure asks for, so an unsure write is not looked up too early', () => {
    const plain = new TransientMessageError('503', 'c1');
    const unsure = new TransientMessageError('no answer to the create', 'c2', undefined, 60_000);
    const short = new TransientMessageError('reset', 'c3', undefined, 5_000);
    expect(combinedFailure([plain, unsure, short])).toBe(unsure);
    expect(combinedFailure([plain, new TransientMessageError('503 too', 'c4')])).toBe(plain);
  });
});
