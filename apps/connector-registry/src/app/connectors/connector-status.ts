import type { ConnectorStatus } from '@connector/contracts';

export interface StatusState {
  status: ConnectorStatus;
  statusBeforeDisable: ConnectorStatus | null;
  statusChangedAt: Date;
}

export type AdminStatusChange = { ok: true; state: StatusState } | { ok: false; reason: string };

/**
 * A status reported from outside (auth-gateway, the OAuth callback), or undefined when it changes nothing.
 * An older report never overwrites a newer status; a disabled connector stays disabled, but remembers the
 * news so that enabling it later returns to the truth (e.g. `auth_failed`, not `connected`).
 */
export function applyReportedStatus(
  state: StatusState,
  status: ConnectorStatus,
  at: Date,
): StatusState | undefined {
  if (at.getTime() < state.statusChangedAt.getTime()) return undefined;
  if (state.status === 'disabled' && status !== 'disabled') {
    if (state.statusBeforeDisable === status) return undefined;
    return { ...state, statusBeforeDisable: status, statusChangedAt: at };
  }
  if (state.status === status) return undefined;
  return {
    status,
    statusBeforeDisable: status === 'disabled' ? state.status : state.statusBeforeDisable,
    statusChangedAt: at,
  };
}

/** What an admin may do with `PATCH {status}`: disable, or enable a connector that was connected. */
export function changeStatusByAdmin(
  state: StatusState,
  wanted: 'disabled' | 'connected',
  at: Date,
): AdminStatusChange {
  if (state.status === wanted) return { ok: true, state };
  switch (wanted) {
    case 'disabled':
      return {
        ok: true,
        state: { status: 'disabled', statusBeforeDisable: state.status, statusChangedAt: at },
      };
    case 'connected':
      if (state.status !== 'disabled') {
        return { ok: false, reason: `only a disabled connector can be enabled (it is ${state.status})` };
      }
      if (state.statusBeforeDisable !== 'connected') {
        return {
          ok: false,
          reason: `it was ${state.statusBeforeDisable ?? 'not connected'} before it was disabled: authorize it or save its credentials again`,
        };
      }
      return { ok: true, state: { status: 'connected', statusBeforeDisable: null, statusChangedAt: at } };
  }
}
