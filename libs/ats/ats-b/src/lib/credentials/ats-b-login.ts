import { AtsError, type OutboundGuard } from '@connector/ats-http';
import type { AtsSetting, AtsSettings, InteractiveLogin, InteractiveLoginDeps } from '@connector/ats-core';
import { AtsBOAuthClient } from '../client/ats-b-oauth.client';
import { AtsBCredentialIssuer } from './ats-b-credential.issuer';

/**
 * The platform's OAuth client at ATS-B (service configuration, never per customer), read by auth-gateway under
 * this adapter's prefix: the names deployments set (README, deploy/). Defaults: the sandbox's.
 */
export const ATS_B_SETTINGS: readonly AtsSetting[] = [
  { name: 'ATS_B_CLIENT_ID', default: 'platform-client', requiredInProduction: true },
  { name: 'ATS_B_CLIENT_SECRET', default: 'platform-secret', requiredInProduction: true },
  { name: 'ATS_B_OAUTH_URL', default: 'https://auth.bullhornstaffing.com/oauth', url: true },
  { name: 'ATS_B_REST_LOGIN_URL', default: 'https://rest.bullhornstaffing.com/rest-services', url: true },
  /**
   * Where the recruiter's browser logs in, when it reaches ATS-B by another address than the gateway does
   * (docker compose: the host's port); empty: `${ATS_B_OAUTH_URL}/authorize`.
   */
  { name: 'ATS_B_AUTHORIZE_URL', default: '', url: 'optional' },
  /** The registry's callback on its public address (`/oauth/ats-b/callback`). */
  {
    name: 'ATS_B_REDIRECT_URI',
    default: 'http://127.0.0.1:3000/oauth/ats-b/callback',
    requiredInProduction: true,
    url: true,
  },
];

/** ATS-B's OAuth and REST-login client, made from its settings. */
export function atsBOAuthClientOf(settings: AtsSettings, guard: OutboundGuard): AtsBOAuthClient {
  const setting = (name: string) => settings[name] ?? '';
  return new AtsBOAuthClient(
    {
      clientId: setting('ATS_B_CLIENT_ID'),
      clientSecret: setting('ATS_B_CLIENT_SECRET'),
      redirectUri: setting('ATS_B_REDIRECT_URI'),
      oauthUrl: setting('ATS_B_OAUTH_URL'),
      restLoginUrl: setting('ATS_B_REST_LOGIN_URL'),
    },
    { guard },
  );
}

/**
 * ATS-B's login steps (auth-gateway's interactive-login flow runs them): its authorize and token ends, the
 * code exchange with the parameters in the query string (ats-b.md), and the first REST session.
 */
export function atsBInteractiveLogin({ guard, settings }: InteractiveLoginDeps): InteractiveLogin {
  const client = atsBOAuthClientOf(settings, guard);
  const issuer = new AtsBCredentialIssuer(client, guard);
  const oauthUrl = (settings['ATS_B_OAUTH_URL'] ?? '').replace(/\/+$/, '');
  return {
    oauth: {
      authorizeUrl: settings['ATS_B_AUTHORIZE_URL'] || `${oauthUrl}/authorize`,
      tokenUrl: `${oauthUrl}/token`,
      clientId: settings['ATS_B_CLIENT_ID'] ?? '',
      clientSecret: settings['ATS_B_CLIENT_SECRET'] ?? '',
      callbackUrl: settings['ATS_B_REDIRECT_URI'] ?? '',
    },
    exchangeCode: (code, verifier) => client.exchangeCode(code, verifier),
    firstSession: (tokens) => issuer.firstSession(tokens.accessToken, tokens.expiresInSeconds),
    clientRejected: (error) => error instanceof AtsError && error.code === 'invalid_client',
  };
}
