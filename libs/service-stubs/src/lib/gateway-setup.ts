import { randomBytes } from 'node:crypto';
import { driveLoginForm } from '@connector/ats-b-sandbox/testing';
import {
  type AtsAConfigDto,
  type AuthorizationStartReply,
  createEvent,
  RoutingKey,
} from '@connector/contracts';
import type { RpcClient } from '@connector/messaging';
import { type ServiceProcess, startService } from '@connector/testing';

/**
 * auth-gateway as a process, reaching an ATS-B sandbox (its callback address is never called) and sealing with
 * a key of its own; `env` names the suite's database and broker and anything more.
 */
export function startAuthGateway(
  atsB: { oauthUrl: string; restLoginUrl: string },
  env: Record<string, string>,
): Promise<ServiceProcess> {
  return startService('auth-gateway', {
    ...env,
    ENCRYPTION_KEYS: `k1:${randomBytes(32).toString('base64')}`,
    ATS_B_OAUTH_URL: atsB.oauthUrl,
    ATS_B_REST_LOGIN_URL: atsB.restLoginUrl,
    ATS_B_REDIRECT_URI: 'http://127.0.0.1:3999/oauth/ats-b/callback',
  });
}

/** Stores an ATS-A connector's credentials in auth-gateway, as the registry does on `POST /connectors`. */
export async function saveAtsACredentials(
  rpc: RpcClient,
  accountId: string,
  connectorId: string,
  config: AtsAConfigDto,
): Promise<void> {
  await rpc.request(
    createEvent(RoutingKey.AuthCredentialsSave, accountId, { connectorId, type: 'ats-a', config }),
    20_000,
  );
}

/**
 * Authorizes an ATS-B connector in auth-gateway the way a recruiter does: the login URL, the sandbox's login
 * form, then the callback's code and state (as the registry's callback would hand them over).
 */
export async function authorizeAtsB(
  rpc: RpcClient,
  accountId: string,
  connectorId: string,
  login = { username: 'recruiter', password: 'recruiter-pass' },
): Promise<void> {
  const browserNonce = `nonce-${connectorId}`;
  const { authorizeUrl } = await rpc.request<AuthorizationStartReply>(
    createEvent(RoutingKey.AuthAuthorizationStart, accountId, {
      connectorId,
      adminId: 'admin-1',
      browserNonce,
    }),
    20_000,
  );
  const callback = new URL(await driveLoginForm(authorizeUrl, login));
  await rpc.request(
    createEvent(RoutingKey.AuthAuthorizationComplete, accountId, {
      code: callback.searchParams.get('code') ?? '',
      state: callback.searchParams.get('state') ?? '',
      browserNonce,
    }),
    20_000,
  );
}
