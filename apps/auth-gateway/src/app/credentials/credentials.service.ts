import { Inject, Injectable, Logger } from '@nestjs/common';
import { type AtsAccess, AuthErrorCode, createEvent, Exchange, RoutingKey } from '@connector/contracts';
import { AtsError } from '@connector/ats-clients';
import { MessagePublisher } from '@connector/messaging';
import { SecretBox } from '../crypto/secret-box';
import type { ConnectorCredentialEntity } from './connector-credential.entity';
import {
  CREDENTIAL_ISSUERS,
  type CredentialIssuer,
  type CredentialInput,
  type StoredAccess,
} from './credential-issuer';
import { CredentialsRepository } from './credentials.repository';
import { GatewayError } from './gateway.error';

/** Access this close to its end is renewed rather than handed out. */
const EXPIRY_MARGIN_MS = 30_000;

/**
 * Hands workers what they need to call the ATS, renewing it at most once however many workers and
 * gateway processes ask at the same moment: requests in one process share one renewal, processes take
 * the connector's advisory lock and re-read before renewing, and a worker's "rejected" names the access
 * the ATS refused so a renewal that already happened is not repeated.
 */
@Injectable()
export class CredentialsService {
  private readonly logger = new Logger(CredentialsService.name);
  private readonly inFlight = new Map<string, Promise<AtsAccess>>();

  constructor(
    private readonly repository: CredentialsRepository,
    private readonly secrets: SecretBox,
    @Inject(CREDENTIAL_ISSUERS) private readonly issuers: CredentialIssuer[],
    private readonly publisher: MessagePublisher,
  ) {}

  async getAccess(connectorId: string, rejected?: string): Promise<AtsAccess> {
    const key = `${connectorId}:${rejected ?? ''}`;
    const pending = this.inFlight.get(key);
    if (pending) return pending;
    const work = this.resolveAccess(connectorId, rejected).finally(() => this.inFlight.delete(key));
    this.inFlight.set(key, work);
    return work;
  }

  /** Seals and stores a connector's long-lived secret (after the caller proved it works). */
  async store(input: {
    connectorId: string;
    accountId: string;
    atsType: 'ats-a' | 'ats-b';
    baseUrl?: string;
    clientId?: string;
    secret: string;
    access?: { value: StoredAccess; expiresAt: Date };
  }): Promise<void> {
    const issuer = this.issuer(input.atsType);
    await this.repository.save({
      connectorId: input.connectorId,
      accountId: input.accountId,
      atsType: input.atsType,
      state: 'active',
      baseUrl: input.baseUrl ?? null,
      clientId: input.clientId ?? null,
      secret: this.secrets.seal(input.secret, input.connectorId),
      access: input.access ? this.secrets.seal(JSON.stringify(input.access.value), input.connectorId) : null,
      accessExpiresAt: input.access?.expiresAt ?? null,
      accessFingerprint: input.access ? issuer.fingerprintOf(input.access.value) : null,
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

  private async resolveAccess(connectorId: string, rejected?: string): Promise<AtsAccess> {
    const row = this.activeRow(await this.repository.find(connectorId), connectorId);
    const ready = this.usable(row, rejected);
    if (ready) return ready;
    return this.repository.withConnectorLock(connectorId, async () => {
      // Another process may have renewed while we waited for the lock.
      const current = this.activeRow(await this.repository.find(connectorId), connectorId);
      return this.usable(current, rejected) ?? (await this.renew(current, rejected));
    });
  }

  private async renew(row: ConnectorCredentialEntity, rejected?: string): Promise<AtsAccess> {
    const issuer = this.issuer(row.atsType);
    const input = this.inputOf(row);
    try {
      if (input.current && row.accessFingerprint !== rejected) {
        const extended = await issuer.revalidate({ ...input, current: input.current });
        if (extended) {
          await this.repository.update(row.connectorId, { accessExpiresAt: extended });
          return issuer.toAtsAccess(row, input.current, extended);
        }
      }
      const issued = await issuer.renew(input, (secret) =>
        this.repository.update(row.connectorId, { secret: this.secrets.seal(secret, row.connectorId) }),
      );
      await this.repository.update(row.connectorId, {
        access: this.secrets.seal(JSON.stringify(issued.access), row.connectorId),
        accessExpiresAt: issued.expiresAt,
        accessFingerprint: issuer.fingerprintOf(issued.access),
        // Re-seal a secret still under an older key while we are here.
        ...(row.secret && this.secrets.isStale(row.secret)
          ? { secret: this.secrets.seal(input.secret, row.connectorId) }
          : {}),
      });
      this.logger.log(`renewed access for connector ${row.connectorId}`);
      return issuer.toAtsAccess(row, issued.access, issued.expiresAt);
    } catch (error) {
      throw await this.translate(row, error);
    }
  }

  /** ATS errors become answers a worker can act on; a dead refresh token ends the authorization. */
  private async translate(row: ConnectorCredentialEntity, error: unknown): Promise<GatewayError> {
    if (!(error instanceof AtsError)) {
      return error instanceof GatewayError
        ? error
        : new GatewayError(AuthErrorCode.AtsError, (error as Error).message);
    }
    if (error.kind === 'auth') {
      await this.requireAuthorization(row, error.atsMessage ?? error.message);
      return new GatewayError(
        AuthErrorCode.AuthorizationRequired,
        row.atsType === 'ats-b'
          ? 'ATS-B no longer accepts this connector’s authorization: an admin must authorize it again'
          : 'ATS-A refused the stored client ID or client secret: an admin must update them',
      );
    }
    if (error.kind === 'unreachable') return new GatewayError(AuthErrorCode.Unreachable, error.message);
    return new GatewayError(AuthErrorCode.AtsError, error.message);
  }

  private async requireAuthorization(row: ConnectorCredentialEntity, reason: string): Promise<void> {
    await this.repository.update(row.connectorId, {
      state: 'authorization_required',
      secret: null,
      access: null,
      accessExpiresAt: null,
      accessFingerprint: null,
    });
    this.logger.warn(`connector ${row.connectorId} needs a new authorization: ${reason}`);
    await this.publisher.publish(
      Exchange.ConnectorEvents,
      createEvent(RoutingKey.ConnectorStatusChanged, row.accountId, {
        connectorId: row.connectorId,
        status: 'auth_failed',
        reason: 'auth_failed',
      }),
    );
  }

  private activeRow(row: ConnectorCredentialEntity | null, connectorId: string): ConnectorCredentialEntity {
    if (!row) throw new GatewayError(AuthErrorCode.NotFound, `no credentials for connector ${connectorId}`);
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
    const access = JSON.parse(this.secrets.open(row.access, row.connectorId)) as StoredAccess;
    return this.issuer(row.atsType).toAtsAccess(row, access, row.accessExpiresAt);
  }

  private inputOf(row: ConnectorCredentialEntity): CredentialInput {
    if (!row.secret) throw new Error(`connector ${row.connectorId} has no stored secret`);
    return {
      connectorId: row.connectorId,
      baseUrl: row.baseUrl,
      clientId: row.clientId,
      secret: this.secrets.open(row.secret, row.connectorId),
      current: row.access
        ? (JSON.parse(this.secrets.open(row.access, row.connectorId)) as StoredAccess)
        : undefined,
    };
  }

  private issuer(atsType: 'ats-a' | 'ats-b'): CredentialIssuer {
    const issuer = this.issuers.find((candidate) => candidate.atsType === atsType);
    if (!issuer) throw new Error(`no credential issuer for ${atsType}`);
    return issuer;
  }
}
