import { Injectable, Logger } from '@nestjs/common';

/** Stable codes an operator's log alerting matches on (`"alert":"<code>"` at level error). */
export const OperatorAlert = {
  /**
   * An interactive-login ATS refused the platform's own OAuth client (its adapter's client settings): nothing
   * was wiped. The line's `atsType` names the ATS (was ATS_B_CLIENT_REJECTED).
   */
  OAuthClientRejected: 'OAUTH_CLIENT_REJECTED',
  /** An ATS refused a refresh token after an earlier refresh of it never finished saving: possibly our loss. */
  RefreshLostInFlight: 'REFRESH_LOST_IN_FLIGHT',
  /** A rotated refresh token could not be stored after every retry. */
  RefreshNotSaved: 'REFRESH_NOT_SAVED',
  /**
   * A sealed secret does not open for its row as stored (address, client id or ATS type changed outside a
   * save, or a sealed value copied): nothing was sent; the connector needs new credentials.
   */
  SealedSecretMismatch: 'SEALED_SECRET_MISMATCH',
} as const;
export type OperatorAlertCode = (typeof OperatorAlert)[keyof typeof OperatorAlert];

/**
 * The operator alert channel: one error log line with a stable `alert` code (no secrets), which log-based
 * alerting routes to whoever is on call. Also counted per code so a test or a health view can see it.
 */
@Injectable()
export class OperatorAlerts {
  private readonly logger = new Logger('OperatorAlert');
  private readonly counts = new Map<OperatorAlertCode, number>();

  raise(code: OperatorAlertCode, message: string, fields: Record<string, string> = {}): void {
    this.counts.set(code, (this.counts.get(code) ?? 0) + 1);
    this.logger.error({ alert: code, msg: message, ...fields });
  }

  count(code: OperatorAlertCode): number {
    return this.counts.get(code) ?? 0;
  }
}
