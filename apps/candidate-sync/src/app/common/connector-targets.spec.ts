import { PermanentMessageError, TransientMessageError } from '@connector/messaging';
import { combinedFailure, targetOf } from './connector-targets';

describe(targetOf.name, () => {
  it('works for connected connectors, waits for re-authorization, skips the others', () => {
    expect(targetOf('connected')).toBe('work');
    expect(targetOf('auth_failed')).toBe('wait');
    expect(targetOf('disabled')).toBe('skip');
    expect(targetOf('pending_authorization')).toBe('skip');
  });

  it('retries a message while any connector may still succeed, else dead-letters it', () => {
    const permanent = new PermanentMessageError('no', 'c1');
    const transient = new TransientMessageError('later', 'c2');
    expect(combinedFailure([permanent, transient])).toBe(transient);
    expect(combinedFailure([permanent])).toBe(permanent);
    expect(combinedFailure([])).toBeUndefined();
  });
});
