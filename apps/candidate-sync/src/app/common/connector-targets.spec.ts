import { targetOf } from './connector-targets';

describe(targetOf.name, () => {
  it('works for connected connectors, waits for re-authorization, skips the others', () => {
    expect(targetOf('connected')).toBe('work');
    expect(targetOf('auth_failed')).toBe('wait');
    expect(targetOf('disabled')).toBe('skip');
    expect(targetOf('pending_authorization')).toBe('skip');
  });
});
