import { type OutboundGuard, parseAllowedHosts } from '@connector/ats-http';
import type { AtsSetting, AtsSettings } from '@connector/ats-core';
import { AtsBOAuthClient } from '../client/ats-b-oauth.client';

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
   * The vendor's hosts, comma-separated suffixes (ats-b.md "Data centres"): where a 307 to a customer's data
   * centre may lead, and what a connector's kept data centre and a session's restUrl must be under. The
   * hosts of ATS_B_OAUTH_URL and ATS_B_REST_LOGIN_URL are always allowed.
   */
  { name: 'ATS_B_ALLOWED_HOSTS', default: '.bullhornstaffing.com' },
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

/** ATS-B's OAuth and REST-login client, made from its settings; what it refuses is logged (host only). */
export function atsBOAuthClientOf(
  settings: AtsSettings,
  guard: OutboundGuard,
  logger: { warn(message: string): void },
): AtsBOAuthClient {
  const setting = (name: string) => settings[name] ?? '';
  return new AtsBOAuthClient(
    {
      clientId: setting('ATS_B_CLIENT_ID'),
      clientSecret: setting('ATS_B_CLIENT_SECRET'),
      redirectUri: setting('ATS_B_REDIRECT_URI'),
      oauthUrl: setting('ATS_B_OAUTH_URL'),
      restLoginUrl: setting('ATS_B_REST_LOGIN_URL'),
      allowedHosts: parseAllowedHosts(setting('ATS_B_ALLOWED_HOSTS')),
      onRefused: ({ endpoint, host, reason }) =>
        logger.warn(`ATS-B ${endpoint}: refused the address at ${host}: ${reason}`),
    },
    { guard },
  );
}
