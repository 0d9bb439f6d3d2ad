import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { OAuthStateEntity } from './oauth-state.entity';

export interface OAuthContext {
  connectorId: string;
  accountId: string;
  adminId: string;
  browserNonce: string;
}

const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');

/**
 * The `state` of ATS-B logins (CSRF): unguessable (32 random bytes), stored only as a hash, bound to the
 * connector, the admin and the browser (a nonce the registry keeps in an HttpOnly cookie), single use and
 * short-lived. Consuming it is one UPDATE, so two callbacks with the same state cannot both pass.
 */
@Injectable()
export class OAuthStateStore {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async issue(context: OAuthContext, ttlSeconds: number): Promise<{ state: string; expiresAt: Date }> {
    const state = randomBytes(32).toString('base64url');
    const expiresAt = new Date(Date.now() + ttlSeconds * 1000);
    await this.dataSource.getRepository(OAuthStateEntity).insert({
      stateHash: sha256(state),
      connectorId: context.connectorId,
      accountId: context.accountId,
      adminId: context.adminId,
      nonceHash: sha256(context.browserNonce),
      expiresAt,
      usedAt: null,
    });
    return { state, expiresAt };
  }

  /** The state's context if it is known, unused, unexpired and this browser's; it is used up either way. */
  async consume(state: string, browserNonce: string): Promise<OAuthStateEntity | undefined> {
    const rows = (await this.dataSource.query(
      `UPDATE "oauth_state" SET "used_at" = now()
       WHERE "state_hash" = $1 AND "used_at" IS NULL AND "expires_at" > now()
       RETURNING "connector_id" AS "connectorId", "account_id" AS "accountId", "admin_id" AS "adminId",
                 "nonce_hash" AS "nonceHash", "expires_at" AS "expiresAt"`,
      [sha256(state)],
    )) as [OAuthStateEntity[], number] | OAuthStateEntity[];
    const [row] = Array.isArray(rows[0]) ? (rows[0] as OAuthStateEntity[]) : (rows as OAuthStateEntity[]);
    if (!row) return undefined;
    const expected = Buffer.from(row.nonceHash, 'hex');
    const given = Buffer.from(sha256(browserNonce), 'hex');
    return expected.length === given.length && timingSafeEqual(expected, given) ? row : undefined;
  }

  async forget(connectorId: string): Promise<void> {
    await this.dataSource.getRepository(OAuthStateEntity).delete({ connectorId });
  }
}
