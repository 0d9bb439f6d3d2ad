import { Injectable } from '@nestjs/common';
import { type AtsAccess, credentialFingerprint } from '@connector/contracts';
import { OutboundGuard, requestAtsAToken } from '@connector/ats-clients';
import type {
  CredentialInput,
  CredentialIssuer,
  IssuedAccess,
  StoredAccess,
} from '../credentials/credential-issuer';

/** Stop handing out an ATS-A token this long before the ATS says it expires. */
const TOKEN_MARGIN_MS = 60_000;

/** ATS-A: OAuth 2.0 client credentials. No refresh token: a new token is asked for with the secret. */
@Injectable()
export class AtsACredentialIssuer implements CredentialIssuer {
  readonly atsType = 'ats-a' as const;

  constructor(private readonly guard: OutboundGuard) {}

  async renew(input: CredentialInput): Promise<IssuedAccess> {
    if (!input.baseUrl || !input.clientId)
      throw new Error(`connector ${input.connectorId} has no ATS-A address`);
    const token = await requestAtsAToken(input.baseUrl, input.clientId, input.secret, {
      timeoutMs: 15_000,
      guard: this.guard,
    });
    const expiresAt = new Date(Date.now() + token.expiresInSeconds * 1000 - TOKEN_MARGIN_MS);
    return {
      access: { accessToken: token.accessToken, accessTokenExpiresAt: expiresAt.toISOString() },
      expiresAt,
    };
  }

  /** An ATS-A token is good until its expiry; there is nothing to extend. */
  async revalidate(): Promise<Date | undefined> {
    return undefined;
  }

  toAtsAccess(input: { baseUrl: string | null }, access: StoredAccess, expiresAt: Date): AtsAccess {
    return {
      type: 'ats-a',
      baseUrl: input.baseUrl ?? '',
      accessToken: access.accessToken,
      expiresAt: expiresAt.toISOString(),
    };
  }

  fingerprintOf(access: StoredAccess): string {
    return credentialFingerprint(access.accessToken);
  }
}
