import { SandboxError } from '../sandbox.error';
import { FaultInjector, endpointKey } from './fault.injector';

describe(FaultInjector.name, () => {
  it('normalises endpoint keys', () => {
    expect(endpointKey('patch /api/candidates/:id')).toBe('PATCH /api/candidates/{id}');
  });

  it('lets exactly the next N writes time out', () => {
    const faults = new FaultInjector(0);
    faults.replace({ timeoutAfterWrite: { 'POST /api/applications': 2 } });
    expect([1, 2, 3].map(() => faults.takeTimeoutAfterWrite('POST /api/applications'))).toEqual([
      true,
      true,
      false,
    ]);
    expect(faults.takeTimeoutAfterWrite('POST /api/candidates')).toBe(false);
  });

  it('replaces the whole config on update and refuses unknown endpoints', () => {
    const faults = new FaultInjector(25, () => 0.5);
    faults.replace({ jitterMs: 10, errorRate: { 'POST /api/candidates': 0.6 } });
    expect(faults.delayMs()).toBe(30);
    expect(faults.shouldFail('POST /api/candidates')).toBe(true);
    faults.replace({});
    expect(faults.shouldFail('POST /api/candidates')).toBe(false);
    expect(faults.delayMs()).toBe(25);
    expect(() => faults.replace({ errorRate: { 'POST /api/candidate': 1 } })).toThrow(SandboxError);
    expect(() => faults.replace({ errorStatus: 502 as 500 })).toThrow(SandboxError);
  });
});
