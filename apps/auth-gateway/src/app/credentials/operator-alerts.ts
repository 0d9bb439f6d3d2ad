import { Injectable, Logger } from '@nestjs/common';

/** Stable codes an operator's log alerting matches on (`"alert":"<code>"` at level error). */
export const OperatorAlert = {
  /** ATS-B refused the platform's own OAuth client (ATS_B_CLIENT_ID / ATS_B_CLIENT_SECRET): nothing was wiped. */
  AtsBClientRejected: 'ATS_B_CLIENT_REJECTED',
  /** ATS-B refused a refresh token after an earlier refresh of it never finished saving: possibly our loss. */
  AtsBRefreshLostInFlight: 'ATS_B_REFRESH_LOST_IN_FLIGHT',
  /** A rotated ATS-B refresh token could not be stored after every retry. */
  AtsBRefreshNotSaved: 'ATS_B_REFRESH_NOT_SAVED',
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
