import { applyReportedStatus, changeStatusByAdmin, type StatusState } from './connector-status';

const t0 = new Date('2026-01-01T10:00:00Z');
const t1 = new Date('2026-01-01T10:01:00Z');
const connected: StatusState = { status: 'connected', statusBeforeDisable: null, statusChangedAt: t0 };

describe(applyReportedStatus.name, () => {
  it('applies a newer status', () => {
    expect(applyReportedStatus(connected, 'auth_failed', t1)).toEqual({
      status: 'auth_failed',
      statusBeforeDisable: null,
      statusChangedAt: t1,
    });
  });

  it('ignores an older report and a report of the same status', () => {
    const failed = { ...connected, status: 'auth_failed' as const, statusChangedAt: t1 };
    expect(applyReportedStatus(failed, 'connected', t0)).toBeUndefined();
    expect(applyReportedStatus(connected, 'connected', t1)).toBeUndefined();
  });

  it('keeps a disabled connector disabled, remembering the news', () => {
    const disabled: StatusState = {
      status: 'disabled',
      statusBeforeDisable: 'connected',
      statusChangedAt: t0,
    };
    expect(applyReportedStatus(disabled, 'auth_failed', t1)).toEqual({
      ...disabled,
      statusBeforeDisable: 'auth_failed',
      statusChangedAt: t1,
    });
  });
});

describe(changeStatusByAdmin.name, () => {
  it('disables, then enables back to connected', () => {
    const off = changeStatusByAdmin(connected, 'disabled', t1);
    expect(off).toEqual({
      ok: true,
      state: { status: 'disabled', statusBeforeDisable: 'connected', statusChangedAt: t1 },
    });
    const on = off.ok && changeStatusByAdmin(off.state, 'connected', t1);
    expect(on).toMatchObject({ ok: true, state: { status: 'connected' } });
  });

  it('refuses to enable what never was connected, or is not disabled', () => {
    const pending: StatusState = { ...connected, status: 'pending_authorization' };
    expect(changeStatusByAdmin(pending, 'connected', t1)).toMatchObject({ ok: false });
    const off = changeStatusByAdmin(pending, 'disabled', t1);
    expect(off.ok && changeStatusByAdmin(off.state, 'connected', t1)).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/pending_authorization before it was disabled/),
    });
  });
});
