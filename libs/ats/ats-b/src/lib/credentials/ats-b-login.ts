import { AtsError } from '@connector/ats-http';
import type { InteractiveLogin, InteractiveLoginDeps } from '@connector/ats-core';
import { AtsBCredentialIssuer } from './ats-b-credential.issuer';
import { atsBOAuthClientOf } from './ats-b-settings';

/**
 * ATS-B's login steps (auth-gateway's interactive-login flow runs them): its authorize and token ends, the
 * code exchange with the parameters in the query string (ats-b.md), and the first REST session.
 */
export function atsBInteractiveLogin({ guard, settings, logger }: InteractiveLoginDeps): InteractiveLogin {
  const client = atsBOAuthClientOf(settings, guard, logger);
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
    // The data centre that issued the tokens (the router's 307 followed) is the connector's from now on.
    exchangeCode: async (code, verifier) => {
      const tokens = await client.exchangeCode(code, verifier);
      return { ...tokens, addresses: { oauthUrl: tokens.oauthUrl } };
    },
    firstSession: (tokens) =>
      issuer.firstSession(tokens.accessToken, tokens.expiresInSeconds, tokens.addresses?.['oauthUrl']),
    clientRejected: (error) => error instanceof AtsError && error.code === 'invalid_client',
  };
}
