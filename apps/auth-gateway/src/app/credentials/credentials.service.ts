import { randomUUID } from 'node:crypto';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { type AtsAccess, AuthErrorCode, createEvent, Exchange, RoutingKey } from '@connector/contracts';
import {
  AtsParts,
  AtsRegistry,
  type CredentialInput,
  type CredentialIssuer,
  type StoredAccess,
} from '@connector/ats-core';
import { AtsError, DEFAULT_TIMEOUT_MS } from '@connector/ats-http';
import { type OutboxMessage, OutboxRelay } from '@connector/persistence';
import { RateLimitExceededError } from '@connector/rate-limiter';
import { AuthGatewayConfig } from '../auth-gateway.config';
import { credentialBinding } from '../crypto/seal-binding';
import { SealedSecretMismatchError, SecretBox } from '../crypto/secret-box';
import type { ConnectorCredentialEntity } from './connector-credential.entity';
import { CREDENTIAL_ISSUERS } from './credential-issuer';
import { AtsCallSlots } from './ats-call-slots';
import {
  CredentialsReplacedError,
  CredentialsRepository,
  type LeasedCredential,
} from './credentials.repository';
import { GatewayError } from './gateway.error';
import { OperatorAlert, OperatorAlerts } from './operator-alerts';
import { countRefresh, refreshOutcomeOf } from './refresh-metrics';

/** Access this close to its end is renewed rather than handed out. */
const EXPIRY_MARGIN_MS = 30_000;

/**
 * How long a refresh marked in flight may still be running somewhere: the OAuth call's timeout (the client
 * is built with the default, see CredentialsModule), the retries that store the rotated token, and a margin
 * for clocks. Until then another process does not spend the same refresh token; after it, the marker is
 * a refresh whose answer was lost.
 */
export const REFRESH_IN_FLIGHT_MS = DEFAULT_TIMEOUT_MS + 30_000;

/**
 * How long a renewal's lease holds: past the ATS calls' timeouts (an ATS-B refresh and the login after it),
 * the retries that store a rotated token, and a margin, so no one takes over a renewal still running.
 */
export const RENEWAL_LEASE_MS = 2 * DEFAULT_TIMEOUT_MS + 15_000;

/** How long a request waits for another process's renewal of the same connector before answering BUSY. */
const LEASE_WAIT_MS = 10_000;

/** Access is renewed ahead when this share of its life is left (at least RENEW_AHEAD_MIN_MS, at most half). */
const RENEW_AHEAD_SHARE = 1 / 3;
const RENEW_AHEAD_MIN_MS = 120_000;

/** Who renews: a worker waiting for the access (it will use it), or the renew-ahead job (nobody asked yet). */
type RenewalFor = 'request' | 'ahead';

/**
 * Hands workers what they need to call the ATS, renewing it at most once however many workers and
 * gateway processes ask at the same moment: requests in one process share one renewal, processes take
 * the connector's renewal lease (a row's columns, no connection held across the ATS call) or wait for the
 * one that holds it, and a worker's "rejected" names the access the ATS refused so a renewal that already
 * happened is not repeated. ATS calls are bounded (AtsCallSlots): beyond the caps a request answers BUSY.
 */
@Injectable()
export class CredentialsService {
  private readonly logger = new Logger(CredentialsService.name);
  private readonly inFlight = new Map<string, Promise<AtsAccess>>();
  private readonly issuers: AtsParts<CredentialIssuer>;
  private readonly slots: AtsCallSlots;

  constructor(
    private readonly repository: CredentialsRepository,
    private readonly secrets: SecretBox,
    @Inject(CREDENTIAL_ISSUERS) issuers: readonly CredentialIssuer[],
    /** Status changes go out through the outbox, written with the change (see LeasedCredential.update). */
    private readonly outbox: OutboxRelay,
    private readonly alerts: OperatorAlerts,
    @Inject(AuthGatewayConfig)
    private readonly config: Pick<AuthGatewayConfig, 'CREDENTIAL_RECHECK_SECONDS'> &
      Partial<Pick<AuthGatewayConfig, 'RENEWALS_MAX' | 'RENEWALS_PER_SYSTEM'>>,
    /** The ATSs the gateway serves (the process's registry, AuthGatewayGlobalModule). */
    private readonly registry: AtsRegistry,
  ) {
    this.issuers = new AtsParts('credential issuer', registry, issuers);
    this.slots = new AtsCallSlots('renewals', {
      total: config.RENEWALS_MAX ?? 32,
      perKey: config.RENEWALS_PER_SYSTEM ?? 4,
      retryAfterMs: 1_000,
    });
  }

  /**
   * What a worker asked for over the broker: only for a connector of the account the request names. Another
   * account's connector answers as an unknown one, so a forged request learns nothing, not even existence.
   */
  async getAccessFor(accountId: string, connectorId: string, rejected?: string): Promise<AtsAccess> {
    const row = await this.repository.find(connectorId);
    this.checkOwner(row, accountId, connectorId);
    // The row just read is the first look of the renewal too: one read less per request.
    return this.shared(`${connectorId}:${rejected ?? ''}`, () =>
      this.resolveAccess(connectorId, 'request', rejected, row),
    );
  }

  /**
   * Erases a connector's credentials when they belong to `accountId`; false (and nothing erased) when they
   * belong to another account.
   */
  async eraseFor(accountId: string, connectorId: string): Promise<boolean> {
    const row = await this.repository.find(connectorId);
    if (row && row.accountId !== accountId) {
      this.logger.warn(`refused to erase connector ${connectorId}'s credentials for another account`);
      return false;
    }
    if (row) await this.erase(connectorId);
    return true;
  }

  /** Throws NOT_FOUND unless the connector's stored credentials belong to `accountId` (or none are stored). */
  async requireOwner(accountId: string, connectorId: string): Promise<void> {
    this.checkOwner(await this.repository.find(connectorId), accountId, connectorId);
  }

  private checkOwner(row: ConnectorCredentialEntity | null, accountId: string, connectorId: string): void {
    if (row && row.accountId !== accountId) {
      this.logger.warn(`a request of account ${accountId} named connector ${connectorId} of another account`);
      throw new GatewayError(AuthErrorCode.NotFound, `no credentials for connector ${connectorId}`);
    }
  }

  /** For the gateway's own jobs; requests from the broker go through `getAccessFor`. */
  async getAccess(connectorId: string, rejected?: string): Promise<AtsAccess> {
    return this.shared(`${connectorId}:${rejected ?? ''}`, () =>
      this.resolveAccess(connectorId, 'request', rejected),
    );
  }

  /**
   * The renew-ahead job's part: replaces the access with this fingerprint unless someone did meanwhile, so a
   * worker finds fresh access and never waits for a renewal.
   */
  async renewAhead(connectorId: string, fingerprint: string | undefined): Promise<void> {
    await this.shared(`${connectorId}:${fingerprint ?? ''}`, () =>
      this.resolveAccess(connectorId, 'ahead', fingerprint),
    );
  }

  /** Requests for the same thing in this process share one answer. */
  private shared(key: string, work: () => Promise<AtsAccess>): Promise<AtsAccess> {
    const pending = this.inFlight.get(key);
    if (pending) return pending;
    const started = work().finally(() => this.inFlight.delete(key));
    this.inFlight.set(key, started);
    return started;
  }

  /** Seals and stores a connector's long-lived secret (after the caller proved it works). */
  async store(input: {
    connectorId: string;
    accountId: string;
    atsType: string;
    baseUrl?: string | null;
    clientId?: string | null;
    secret: string;
    access?: { value: StoredAccess; expiresAt: Date };
  }): Promise<void> {
    const issuer = this.issuer(input.atsType);
    // Sealed for the address and client id saved with them: a save is what may change those.
    const row = {
      connectorId: input.connectorId,
      atsType: input.atsType,
      baseUrl: input.baseUrl ?? null,
      clientId: input.clientId ?? null,
    };
    await this.repository.save({
      ...row,
      accountId: input.accountId,
      state: 'active',
      secret: this.seal(row, 'secret', input.secret),
      access: input.access ? this.seal(row, 'access', JSON.stringify(input.access.value)) : null,
      accessExpiresAt: input.access?.expiresAt ?? null,
      accessFingerprint: input.access ? issuer.fingerprintOf(input.access.value) : null,
      refreshMarker: null,
      refreshStartedAt: null,
      recheckAt: null,
      // A renewal of the credentials this replaces writes nothing after this (LeasedCredential.update).
      generation: randomUUID(),
      leaseOwner: null,
      leaseUntil: null,
      renewAt: input.access ? renewAtOf(input.access.expiresAt) : null,
      inUse: false,
    });
  }

  async erase(connectorId: string): Promise<void> {
    await this.repository.delete(connectorId);
    this.logger.log(`erased the credentials of connector ${connectorId}`);
  }

  /** A worker said the ATS refused this access: forget it so the next request renews. */
  async invalidate(connectorId: string, fingerprint: string): Promise<void> {
    const row = await this.repository.find(connectorId);
    if (row?.accessFingerprint === fingerprint) {
      await this.repository.update(connectorId, { accessExpiresAt: new Date(0) });
    }
  }

  /**
   * Access from the row when it is good (and not the one `rejected` names); else a renewal under the
   * connector's lease. When another process holds the lease, its result is awaited by re-reading the row
   * with a short backoff, bounded by LEASE_WAIT_MS; then BUSY.
   */
  private async resolveAccess(
    connectorId: string,
    renewalFor: RenewalFor,
    rejected?: string,
    firstRead?: ConnectorCredentialEntity | null,
  ): Promise<AtsAccess> {
    try {
      return await this.readOrRenew(connectorId, renewalFor, rejected, firstRead);
    } catch (error) {
      if (error instanceof SealedSecretMismatchError) throw await this.refuseMismatched(error);
      throw error;
    }
  }

  private async readOrRenew(
    connectorId: string,
    renewalFor: RenewalFor,
    rejected?: string,
    firstRead?: ConnectorCredentialEntity | null,
  ): Promise<AtsAccess> {
    const deadline = Date.now() + LEASE_WAIT_MS;
    let read = firstRead;
    for (let pauseMs = 25; ; pauseMs = Math.min(pauseMs * 2, 400)) {
      const row = this.activeRow(read ?? (await this.repository.find(connectorId)), connectorId);
      read = undefined;
      const ready = this.usable(row, rejected);
      if (ready) {
        if (renewalFor === 'request') await this.markInUse(row);
        return ready;
      }
      const outcome = await this.renewUnderLease(row, renewalFor, rejected);
      if (outcome.leased) return outcome.value;
      if (Date.now() + pauseMs > deadline) {
        throw new GatewayError(
          AuthErrorCode.Busy,
          `a renewal of connector ${connectorId}'s access is still running elsewhere; try again shortly`,
          Math.round(500 + Math.random() * 1_000),
        );
      }
      await new Promise((resolve) => setTimeout(resolve, pauseMs * (0.5 + Math.random())));
    }
  }

  private async renewUnderLease(
    row: ConnectorCredentialEntity,
    renewalFor: RenewalFor,
    rejected?: string,
  ): Promise<{ leased: true; value: AtsAccess } | { leased: false }> {
    try {
      // The slot is the system's (its address, else the connector): one slow customer fills only its own.
      const system = `${row.atsType}:${row.accountId}:${row.baseUrl ?? row.connectorId}`;
      return await this.slots.run(system, () =>
        this.repository.withRenewalLease(
          row.connectorId,
          async (leased, claimed) => {
            // Another process may have renewed since we read the row: the claim answers it as it is now.
            const current = this.activeRow(claimed, row.connectorId);
            return (
              this.usable(current, rejected) ?? (await this.renew(current, leased, renewalFor, rejected))
            );
          },
          RENEWAL_LEASE_MS,
        ),
      );
    } catch (error) {
      if (!(error instanceof CredentialsReplacedError)) throw error;
      // New credentials were saved while we renewed the old ones: nothing of ours was written. Hand out
      // the new access when the save came with one; otherwise the next request renews the new ones.
      this.logger.log(`the credentials of connector ${row.connectorId} were replaced during a renewal`);
      const fresh = this.activeRow(await this.repository.find(row.connectorId), row.connectorId);
      const access = this.usable(fresh, rejected);
      if (access) return { leased: true, value: access };
      throw new GatewayError(
        AuthErrorCode.AtsError,
        `the credentials of connector ${row.connectorId} were replaced during a renewal; try again`,
      );
    }
  }

  /** The access was handed to a worker: renew it ahead from now on (one write per access, not per request). */
  private async markInUse(row: ConnectorCredentialEntity): Promise<void> {
    if (row.inUse || !row.accessFingerprint) return;
    await this.repository
      .markInUse(row.connectorId, row.accessFingerprint)
      .catch((error: Error) =>
        this.logger.warn(`could not mark connector ${row.connectorId}'s access in use: ${error.message}`),
      );
  }

  private async renew(
    row: ConnectorCredentialEntity,
    locked: LeasedCredential,
    renewalFor: RenewalFor,
    rejected?: string,
  ): Promise<AtsAccess> {
    const issuer = this.issuer(row.atsType);
    const input = this.inputOf(row);
    // A marker left by an earlier attempt: that refresh may have spent the token and lost the answer.
    const earlierMarker = row.refreshMarker;
    let marker: string | undefined;
    let rotated = false;
    try {
      if (input.current && row.accessFingerprint !== rejected) {
        const extended = await issuer.revalidate({ ...input, current: input.current });
        if (extended) {
          await locked.update({ accessExpiresAt: extended, renewAt: renewAtOf(extended) });
          countRefresh(row.atsType, 'extended');
          return issuer.toAtsAccess(row, input.current, extended);
        }
      }
      const issued = await issuer.renew(input, {
        beforeSpend: async () => {
          // Another process may be spending this single-use token right now (its lease ran out, so we got
          // it): spending it too would get invalid_grant. Wait for it to finish or time out.
          if (refreshInFlight(row)) {
            throw new GatewayError(
              AuthErrorCode.AtsError,
              `a renewal of connector ${row.connectorId}'s access is in progress; try again shortly`,
            );
          }
          marker = randomUUID();
          await locked.update({ refreshMarker: marker, refreshStartedAt: new Date() });
        },
        persistSecret: async (secret, access) => {
          await this.persistRotation(row, locked, marker, secret, access);
          rotated = true;
        },
      });
      const recovered = row.state === 'rejected';
      await this.updateAndAnnounce(
        locked,
        {
          state: 'active',
          recheckAt: null,
          access: this.seal(row, 'access', JSON.stringify(issued.access)),
          accessExpiresAt: issued.expiresAt,
          accessFingerprint: issuer.fingerprintOf(issued.access),
          renewAt: renewAtOf(issued.expiresAt),
          // A worker gets this access now; one renewed ahead waits until a worker asks for it.
          inUse: renewalFor === 'request',
          // The lease is given back with the result, in the same statement.
          leaseOwner: null,
          leaseUntil: null,
          // Re-seal a secret still under an older key while we are here (not one that just rotated).
          ...(!rotated && row.secret && this.secrets.isStale(row.secret)
            ? { secret: this.seal(row, 'secret', input.secret) }
            : {}),
        },
        recovered ? [statusChanged(row, 'connected', 'authorized')] : [],
      );
      this.logger.log(`renewed access for connector ${row.connectorId}`);
      countRefresh(row.atsType, 'renewed');
      if (recovered)
        this.logger.log(`${this.labelOf(row)} accepts the credentials of connector ${row.connectorId} again`);
      return issuer.toAtsAccess(row, issued.access, issued.expiresAt);
    } catch (error) {
      const answer = await this.translate(row, locked, error, { earlierMarker, marker });
      countRefresh(row.atsType, refreshOutcomeOf(answer));
      throw answer;
    }
  }

  /** The rotated refresh token, stored before anything uses the new access; retried in-process. */
  private async persistRotation(
    row: ConnectorCredentialEntity,
    locked: LeasedCredential,
    marker: string | undefined,
    secret: string,
    access?: StoredAccess,
  ): Promise<void> {
    if (!marker) throw new Error('a rotated secret arrived without an in-flight marker');
    try {
      await locked.saveRotation(
        {
          secret: this.seal(row, 'secret', secret),
          refreshMarker: null,
          refreshStartedAt: null,
          // The access token it came with, not yet a session: the next attempt logs in with it, no refresh.
          ...(access
            ? {
                access: this.seal(row, 'access', JSON.stringify(access)),
                accessExpiresAt: new Date(0),
                accessFingerprint: null,
              }
            : {}),
        },
        marker,
      );
    } catch (error) {
      this.alerts.raise(
        OperatorAlert.RefreshNotSaved,
        `the rotated refresh token of connector ${row.connectorId} could not be stored: ${(error as Error).message}`,
        { connectorId: row.connectorId, atsType: row.atsType },
      );
      throw new GatewayError(AuthErrorCode.AtsError, 'the renewed authorization could not be stored');
    }
  }

  /**
   * ATS errors become answers a worker can act on. Only `invalid_grant` on a refresh ends an authorization;
   * the platform's own OAuth client refused is an operator alert; a client-credentials secret is never erased.
   */
  private async translate(
    row: ConnectorCredentialEntity,
    locked: LeasedCredential,
    error: unknown,
    refresh: { earlierMarker: string | null; marker?: string },
  ): Promise<GatewayError> {
    if (error instanceof RateLimitExceededError) {
      return new GatewayError(
        AuthErrorCode.RateLimited,
        `no ATS budget for a token of connector ${row.connectorId} until ${error.retryAt.toISOString()}`,
      );
    }
    if (!(error instanceof AtsError)) {
      return error instanceof GatewayError
        ? error
        : new GatewayError(AuthErrorCode.AtsError, (error as Error).message);
    }
    // The ATS refused the request itself (4xx other than invalid_grant): the token was not spent. A 5xx or
    // no answer keeps the marker: a proxy may have lost the answer of a refresh that happened.
    const refused = error.status !== undefined && error.status >= 400 && error.status < 500;
    if (refresh.marker && refused && !error.ambiguous && error.code !== 'invalid_grant') {
      await locked.update({ refreshMarker: null, refreshStartedAt: null }).catch(() => undefined);
    }
    // Client credentials refused: the customer's secret is wrong (a refresh token refused is handled below).
    if (error.kind === 'auth' && this.registry.supports(row.atsType, 'client-credentials')) {
      return this.rejectClientCredentials(row, locked, error);
    }
    if (error.kind === 'auth' && error.code === 'invalid_client') {
      this.alerts.raise(
        OperatorAlert.OAuthClientRejected,
        `${this.labelOf(row)} refused the platform’s OAuth client: check its client id and secret in the ` +
          'settings of its adapter. Every customer’s refresh token is kept.',
        { connectorId: row.connectorId, atsType: row.atsType },
      );
      return new GatewayError(
        AuthErrorCode.AtsError,
        `${this.labelOf(row)} refused the platform’s OAuth client; the operator has been alerted, nothing was erased`,
      );
    }
    if (error.kind === 'auth' && error.code === 'invalid_grant' && refresh.marker) {
      return this.requireAuthorization(row, locked, error, refresh.earlierMarker !== null);
    }
    if (error.kind === 'unreachable') return new GatewayError(AuthErrorCode.Unreachable, error.message);
    // The token endpoint is on the daily quota: the worker waits for the reset the ATS named, no attempt spent.
    if (error.kind === 'rate_limited') return new GatewayError(AuthErrorCode.RateLimited, error.message);
    return new GatewayError(AuthErrorCode.AtsError, error.message);
  }

  /**
   * The ATS no longer takes the refresh token: the connector waits for a new login. When an earlier refresh
   * of it never finished, the token may have been spent by us: alert, and keep the sealed token for study.
   */
  private async requireAuthorization(
    row: ConnectorCredentialEntity,
    locked: LeasedCredential,
    error: AtsError,
    afterLostRefresh: boolean,
  ): Promise<GatewayError> {
    await this.updateAndAnnounce(
      locked,
      {
        state: 'authorization_required',
        ...(afterLostRefresh ? {} : { secret: null }),
        access: null,
        accessExpiresAt: null,
        accessFingerprint: null,
        refreshMarker: null,
        refreshStartedAt: null,
      },
      [statusChanged(row, 'auth_failed', 'auth_failed')],
    );
    if (afterLostRefresh) {
      this.alerts.raise(
        OperatorAlert.RefreshLostInFlight,
        `${this.labelOf(row)} refused the refresh token of connector ${row.connectorId} after an earlier refresh of ` +
          'it never finished: its answer may have been lost. The connector must be authorized again.',
        { connectorId: row.connectorId, atsType: row.atsType },
      );
    }
    this.logger.warn(
      `connector ${row.connectorId} needs a new authorization: ${error.atsMessage ?? error.message}`,
    );
    return new GatewayError(
      AuthErrorCode.AuthorizationRequired,
      `${this.labelOf(row)} no longer accepts this connector’s authorization: an admin must authorize it again`,
    );
  }

  /** The ATS refused the stored client credentials: kept, the connector shown auth_failed, tried again later. */
  private async rejectClientCredentials(
    row: ConnectorCredentialEntity,
    locked: LeasedCredential,
    error: AtsError,
  ): Promise<GatewayError> {
    const recheckAt = new Date(Date.now() + this.config.CREDENTIAL_RECHECK_SECONDS * 1000);
    await this.updateAndAnnounce(
      locked,
      { state: 'rejected', recheckAt, access: null, accessExpiresAt: null, accessFingerprint: null },
      row.state !== 'rejected' ? [statusChanged(row, 'auth_failed', 'auth_failed')] : [],
    );
    this.logger.warn(
      `${this.labelOf(row)} refused the credentials of connector ${row.connectorId} (${error.status ?? '?'}); ` +
        `kept, next check at ${recheckAt.toISOString()}`,
    );
    return new GatewayError(
      AuthErrorCode.AuthorizationRequired,
      `${this.labelOf(row)} refused the stored client credentials: update them, or wait for the ATS to accept them again`,
    );
  }

  /**
   * A sealed value does not open for its row as it is now: the address, client id or ATS type was changed
   * outside a save, or a sealed value was copied. Nothing was sent; the connector needs new credentials (an
   * admin saves or authorizes again, which seals them for the new values). The sealed values are kept.
   */
  private async refuseMismatched(mismatch: SealedSecretMismatchError): Promise<GatewayError> {
    const { connectorId, column } = mismatch;
    this.alerts.raise(
      OperatorAlert.SealedSecretMismatch,
      `${mismatch.message}. Nothing was sent to the ATS; the connector needs new credentials.`,
      { connectorId, column },
    );
    await this.repository
      .withRenewalLease(
        connectorId,
        async (leased, row) => {
          // Saved anew meanwhile (it opens now), or already waiting for new credentials: nothing to change.
          if (row.state === 'authorization_required' || !this.mismatchOf(row)) return;
          await this.updateAndAnnounce(
            leased,
            { state: 'authorization_required', recheckAt: null, leaseOwner: null, leaseUntil: null },
            // A refused client-credentials secret (`rejected`) was announced auth_failed already.
            row.state === 'active' ? [statusChanged(row, 'auth_failed', 'sealed_secret_mismatch')] : [],
          );
        },
        RENEWAL_LEASE_MS,
      )
      // Another process holds the lease (it meets the same mismatch), or a save came: the alert stands.
      .catch((error: Error) =>
        this.logger.warn(
          `could not mark connector ${connectorId} as needing new credentials: ${error.message}`,
        ),
      );
    return new GatewayError(
      AuthErrorCode.AuthorizationRequired,
      `the stored credentials of connector ${connectorId} do not match its settings: save or authorize them again`,
    );
  }

  /** The change and its announcement in one transaction; the relay publishes it now or after an outage. */
  private async updateAndAnnounce(
    locked: LeasedCredential,
    changes: Partial<ConnectorCredentialEntity>,
    announce: OutboxMessage[],
  ): Promise<void> {
    await locked.update(changes, announce);
    if (announce.length > 0) this.outbox.wake();
  }

  private activeRow(row: ConnectorCredentialEntity | null, connectorId: string): ConnectorCredentialEntity {
    if (!row) throw new GatewayError(AuthErrorCode.NotFound, `no credentials for connector ${connectorId}`);
    if (row.state === 'rejected' && row.secret) {
      if ((row.recheckAt?.getTime() ?? 0) <= Date.now()) return row;
      throw new GatewayError(
        AuthErrorCode.AuthorizationRequired,
        `the ATS refused connector ${connectorId}'s credentials; they are tried again at ${row.recheckAt?.toISOString()}`,
      );
    }
    if (row.state !== 'active' || !row.secret) {
      throw new GatewayError(
        AuthErrorCode.AuthorizationRequired,
        `connector ${connectorId} must be authorized again before it can reach the ATS`,
      );
    }
    return row;
  }

  private usable(row: ConnectorCredentialEntity, rejected?: string): AtsAccess | undefined {
    if (!row.access || !row.accessExpiresAt) return undefined;
    if (row.accessExpiresAt.getTime() - Date.now() < EXPIRY_MARGIN_MS) return undefined;
    if (rejected !== undefined && rejected === row.accessFingerprint) return undefined;
    const access = JSON.parse(this.open(row, 'access')) as StoredAccess;
    return this.issuer(row.atsType).toAtsAccess(row, access, row.accessExpiresAt);
  }

  private inputOf(row: ConnectorCredentialEntity): CredentialInput {
    if (!row.secret) throw new Error(`connector ${row.connectorId} has no stored secret`);
    return {
      connectorId: row.connectorId,
      accountId: row.accountId,
      baseUrl: row.baseUrl,
      clientId: row.clientId,
      secret: this.open(row, 'secret'),
      current: row.access ? (JSON.parse(this.open(row, 'access')) as StoredAccess) : undefined,
    };
  }

  private seal(row: SealedFor, column: 'secret' | 'access', plaintext: string) {
    return this.secrets.seal(plaintext, credentialBinding(row, column));
  }

  /** A sealed column, opened only for the row's address, client id and ATS type as they are now. */
  private open(row: ConnectorCredentialEntity, column: 'secret' | 'access'): string {
    const sealed = row[column];
    if (!sealed) throw new Error(`connector ${row.connectorId} has no stored ${column}`);
    return this.secrets.open(sealed, credentialBinding(row, column));
  }

  /** The first sealed column of the row that does not open for it, if any. */
  private mismatchOf(row: ConnectorCredentialEntity): SealedSecretMismatchError | undefined {
    for (const column of ['secret', 'access'] as const) {
      if (!row[column]) continue;
      try {
        this.open(row, column);
      } catch (error) {
        if (error instanceof SealedSecretMismatchError) return error;
        throw error;
      }
    }
    return undefined;
  }

  /** The connector's ATS as people call it (its adapter's label), for logs and answers. */
  private labelOf(row: { atsType: string }): string {
    return this.registry.has(row.atsType) ? this.registry.get(row.atsType).label : row.atsType;
  }

  private issuer(atsType: string): CredentialIssuer {
    return this.issuers.get(atsType);
  }
}

/**
 * When access ending at `expiresAt` (issued now) is renewed ahead: with RENEW_AHEAD_SHARE of its life left, at
 * least RENEW_AHEAD_MIN_MS before its end, but never in the first half of its life (short tokens).
 */
export function renewAtOf(expiresAt: Date, now = Date.now()): Date {
  const lifeMs = Math.max(0, expiresAt.getTime() - now);
  const aheadMs = Math.min(Math.max(lifeMs * RENEW_AHEAD_SHARE, RENEW_AHEAD_MIN_MS), lifeMs / 2);
  return new Date(expiresAt.getTime() - aheadMs);
}

/** What a credential's sealed columns are bound to (seal-binding.ts). */
type SealedFor = Pick<ConnectorCredentialEntity, 'connectorId' | 'atsType' | 'baseUrl' | 'clientId'>;

/** A refresh another attempt marked, started recently enough that it may still be running. */
function refreshInFlight(row: ConnectorCredentialEntity): boolean {
  if (!row.refreshMarker || !row.refreshStartedAt) return false;
  return Date.now() - row.refreshStartedAt.getTime() < REFRESH_IN_FLIGHT_MS;
}

function statusChanged(
  row: ConnectorCredentialEntity,
  status: 'auth_failed' | 'connected',
  reason: string,
): OutboxMessage {
  return {
    exchange: Exchange.ConnectorEvents,
    envelope: createEvent(RoutingKey.ConnectorStatusChanged, row.accountId, {
      connectorId: row.connectorId,
      status,
      reason,
    }),
  };
}
