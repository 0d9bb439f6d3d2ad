import { randomBytes, randomUUID } from 'node:crypto';
import { driveLoginForm } from '@connector/ats-b-sandbox/testing';
import {
  type AuthorizationStartReply,
  createEvent,
  type EventEnvelope,
  RoutingKey,
} from '@connector/contracts';
import type { RpcClient } from '@connector/messaging';
import { LOCAL_REQUEST_SEAL_KEYS, RequestSeal } from '@connector/service-kit';
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

const localSeal = RequestSeal.fromEnv(LOCAL_REQUEST_SEAL_KEYS);

/** ATS-A credentials in clear, as the registry's connector kind hands them over. */
interface AtsAConfig {
  baseUrl: string;
  clientId: string;
  clientSecret: string;
}

/**
 * A request to auth-gateway as connector-registry builds it: each of `secretFields` of `config` (ATS-A's
 * `clientSecret` unless told) sealed for this request under the local REQUEST_SEAL_KEYS, which the tests'
 * services use unless told otherwise.
 */
export function registryRequest(
  type: string,
  accountId: string,
  data: { connectorId?: string; config?: Record<string, unknown> } & Record<string, unknown>,
  secretFields: readonly string[] = ['clientSecret'],
): EventEnvelope {
  const id = randomUUID();
  const { config, connectorId } = data;
  const secrets = secretFields.filter((field) => typeof config?.[field] === 'string');
  if (!config || secrets.length === 0) return createEvent(type, accountId, data, { id });
  const scope = { type, accountId, requestId: id, connectorId };
  const sealed = { ...config };
  for (const field of secrets) sealed[field] = localSeal.seal(String(config[field]), scope);
  return createEvent(type, accountId, { ...data, config: sealed }, { id });
}

/** Stores an ATS-A connector's credentials in auth-gateway, as the registry does on `POST /connectors`. */
export async function saveAtsACredentials(
  rpc: RpcClient,
  accountId: string,
  connectorId: string,
  config: AtsAConfig,
): Promise<void> {
  await rpc.request(
    registryRequest(RoutingKey.AuthCredentialsSave, accountId, {
      connectorId,
      type: 'ats-a',
      config: { ...config },
    }),
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
