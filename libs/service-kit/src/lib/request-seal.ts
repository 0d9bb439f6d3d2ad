import { createHash } from 'node:crypto';
import type { SealedSecretDto } from '@connector/contracts';
import { SealingKeys } from './sealing-keys';

/** What a sealed request field is bound to: the request (its type, account and id) and its connector. */
export interface RequestSealScope {
  type: string;
  accountId: string;
  requestId: string;
  /** None for a request about no saved connector (`auth.connection.test`). */
  connectorId?: string;
}

/**
 * `REQUEST_SEAL_KEYS` outside production (`npm start` generates its own): a fixed, published key, so the
 * tests' services share it without configuration. Production requires its own.
 */
export const LOCAL_REQUEST_SEAL_KEYS = `local:${createHash('sha256').update('local mode only').digest('base64')}`;

/**
 * Seals a secret field of a request from connector-registry to auth-gateway (`REQUEST_SEAL_KEYS`, which only
 * those two hold), so the broker never keeps it in clear (quorum-queue segments on its disk). The associated
 * data binds it to its request: copied into another request (type, account, connector or id) it does not open.
 */
export class RequestSeal {
  constructor(private readonly keys: SealingKeys) {}

  static fromEnv(value: string): RequestSeal {
    return new RequestSeal(SealingKeys.fromEnv(value));
  }

  seal(secret: string, scope: RequestSealScope): SealedSecretDto {
    return { v: 1, ...this.keys.seal(secret, associatedData(scope)) };
  }

  /** Throws (naming the key, never the secret) when it was sealed for another request or under another key. */
  open(sealed: SealedSecretDto, scope: RequestSealScope): string {
    return this.keys.open(sealed, associatedData(scope));
  }
}

function associatedData({ type, accountId, connectorId, requestId }: RequestSealScope): Buffer {
  return Buffer.from(JSON.stringify(['request-seal/1', type, accountId, connectorId ?? null, requestId]));
}
