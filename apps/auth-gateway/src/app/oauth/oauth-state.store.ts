import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { entitiesOf } from '@connector/persistence';
import { OperatorAlert, OperatorAlerts } from '../credentials/operator-alerts';
import type { SealBinding } from '../crypto/seal-binding';
import { SealedSecretMismatchError, SecretBox } from '../crypto/secret-box';
import { OAuthStateEntity } from './oauth-state.entity';
import { CONSUME_STATE, PURGE_EXPIRED_STATES } from './oauth-state.sql';

export interface OAuthContext {
  connectorId: string;
  accountId: string;
  adminId: string;
  browserNonce: string;
}

const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');

/** A consumed state: its context, and the PKCE verifier issued with it. */
export type ConsumedState = OAuthStateEntity & { verifier?: string };

/**
 * The `state` of interactive logins (CSRF): unguessable (32 random bytes), stored only as a hash, bound to the
 * ATS it was issued for, the connector, the admin and the browser (a nonce the registry keeps in an HttpOnly
 * cookie), single use and short-lived. Consuming it is one UPDATE, so two callbacks with the same state cannot both pass. Each new
 * login purges the states that have expired.
 */
@Injectable()
export class OAuthStateStore {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly secrets: SecretBox,
    private readonly alerts: OperatorAlerts,
  ) {}

  async issue(
    atsType: string,
    context: OAuthContext,
    ttlSeconds: number,
    verifier?: string,
  ): Promise<{ state: string; expiresAt: Date }> {
    await this.purgeExpired();
    const state = randomBytes(32).toString('base64url');
    const stateHash = sha256(state);
    const expiresAt = new Date(Date.now() + ttlSeconds * 1000);
    await this.dataSource.getRepository(OAuthStateEntity).insert({
      stateHash,
      atsType,
      codeVerifier: verifier
        ? this.secrets.seal(verifier, verifierBinding(context.connectorId, stateHash))
        : null,
      connectorId: context.connectorId,
      accountId: context.accountId,
      adminId: context.adminId,
      nonceHash: sha256(context.browserNonce),
      expiresAt,
      usedAt: null,
    });
    return { state, expiresAt };
  }

  /**
   * The state's context if it is known, unused, unexpired, issued for `atsType` and this browser's. A state of
   * another ATS is refused and left unused (its own callback may still come); otherwise it is used up either
   * way. A verifier that does not open for its state and connector refuses the state (and alerts).
   */
  async consume(atsType: string, state: string, browserNonce: string): Promise<ConsumedState | undefined> {
    const stateHash = sha256(state);
    const repository = this.dataSource.getRepository(OAuthStateEntity);
    const [row] = entitiesOf(repository, await CONSUME_STATE.rows(this.dataSource, { stateHash, atsType }));
    if (!row) return undefined;
    const expected = Buffer.from(row.nonceHash, 'hex');
    const given = Buffer.from(sha256(browserNonce), 'hex');
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) return undefined;
    if (!row.codeVerifier) return row;
    try {
      return {
        ...row,
        verifier: this.secrets.open(row.codeVerifier, verifierBinding(row.connectorId, stateHash)),
      };
    } catch (error) {
      if (!(error instanceof SealedSecretMismatchError)) throw error;
      this.alerts.raise(OperatorAlert.SealedSecretMismatch, `${error.message}: the login was refused`, {
        connectorId: row.connectorId,
        column: error.column,
      });
      return undefined;
    }
  }

  /** Expired states (used or not) are of no use to anyone: gone, so the table holds only live logins. */
  async purgeExpired(): Promise<number> {
    const [row] = await PURGE_EXPIRED_STATES.rows(this.dataSource, {});
    return row.purged;
  }

  async forget(connectorId: string): Promise<void> {
    await this.dataSource.getRepository(OAuthStateEntity).delete({ connectorId });
  }
}

/** A PKCE verifier belongs to its state and to the connector the login is for. */
function verifierBinding(connectorId: string, stateHash: string): SealBinding {
  return { column: 'code_verifier', connectorId, stateHash };
}
