import { AtsError } from '@connector/ats-http';
import {
  CommonConnectorOptionsDto,
  type ConnectorKind,
  type ConnectorKindContext,
  type CredentialIssuer,
  type CredentialIssuerDeps,
  type InteractiveLogin,
  type InteractiveLoginDeps,
  type AtsSetting,
  type AtsSettings,
  type IssuedAccess,
  type LoginTokens,
} from '@connector/ats-core';
import { credentialFingerprint } from '@connector/contracts';
import { requestTwLoginTokens, type TwLoginOAuthClient } from './tw-login.client';

export const TW_LOGIN = 'tw-login';

/** The platform's OAuth client at the Login vendor, read by auth-gateway under this adapter's prefix. */
export const TW_LOGIN_SETTINGS: readonly AtsSetting[] = [
  { name: 'TW_LOGIN_CLIENT_ID', default: 'tw-platform' },
  { name: 'TW_LOGIN_CLIENT_SECRET', default: 'tw-platform-secret' },
  /** The vendor's address: its sign-in and token ends under /oauth, its API under /api. */
  { name: 'TW_LOGIN_URL', default: 'https://login-vendor.example', url: true },
  /** The registry's callback on its public address (`/oauth/tw-login/callback`). */
  { name: 'TW_LOGIN_REDIRECT_URI', default: 'http://127.0.0.1:3000/oauth/tw-login/callback', url: true },
];

function oauthClientOf(settings: AtsSettings): TwLoginOAuthClient & { url: string } {
  const url = (settings['TW_LOGIN_URL'] ?? '').replace(/\/+$/, '');
  return {
    url,
    tokenUrl: `${url}/oauth/token`,
    clientId: settings['TW_LOGIN_CLIENT_ID'] ?? '',
    clientSecret: settings['TW_LOGIN_CLIENT_SECRET'] ?? '',
    redirectUri: settings['TW_LOGIN_REDIRECT_URI'] ?? '',
  };
}

/** The access kept after a login or a refresh: the token and the API's address the workers call. */
function accessFrom(tokens: LoginTokens, apiUrl: string): IssuedAccess {
  const expiresAt = new Date(Date.now() + tokens.expiresInSeconds * 1000 - 30_000);
  return {
    access: {
      accessToken: tokens.accessToken,
      accessTokenExpiresAt: expiresAt.toISOString(),
      restUrl: apiUrl,
    },
    expiresAt,
  };
}

/** The login's steps: the vendor's sign-in page, the code exchanged with Basic client authentication. */
export function twLoginInteractiveLogin({ guard, settings }: InteractiveLoginDeps): InteractiveLogin {
  const client = oauthClientOf(settings);
  return {
    oauth: {
      authorizeUrl: `${client.url}/oauth/authorize`,
      tokenUrl: client.tokenUrl,
      clientId: client.clientId,
      clientSecret: client.clientSecret,
      callbackUrl: client.redirectUri,
    },
    exchangeCode: (code, verifier) =>
      requestTwLoginTokens(client, { code, ...(verifier ? { verifier } : {}) }, { guard, timeoutMs: 15_000 }),
    firstSession: async (tokens) => accessFrom(tokens, `${client.url}/api`),
    clientRejected: (error) => error instanceof AtsError && error.code === 'invalid_client',
  };
}

/** auth-gateway's part: a single-use refresh token spent for a new access, the new one stored first. */
export const twLoginCredentialIssuer = ({ guard, settings }: CredentialIssuerDeps): CredentialIssuer => {
  const client = oauthClientOf(settings);
  return {
    atsType: TW_LOGIN,
    async renew(input, hooks) {
      await hooks.beforeSpend();
      const tokens = await requestTwLoginTokens(
        client,
        { refreshToken: input.secret },
        { guard, timeoutMs: 15_000 },
      );
      const issued = accessFrom(tokens, `${client.url}/api`);
      await hooks.persistSecret(tokens.refreshToken, issued.access);
      return issued;
    },
    revalidate: async () => undefined,
    toAtsAccess: (_input, access, expiresAt) => ({
      type: TW_LOGIN,
      apiUrl: access.restUrl ?? '',
      accessToken: access.accessToken,
      expiresAt: expiresAt.toISOString(),
    }),
    fingerprintOf: (access) => credentialFingerprint(access.accessToken),
  };
};

/** Nothing is typed in: the connector is saved, then a recruiter signs in at the vendor. */
export class TwLoginConfigDto {}

const DEFAULT_OPTIONS = { syncIntervalMinutes: 15, fullSyncEveryHours: 24 };

export const twLoginConnectorKind = (context: ConnectorKindContext): ConnectorKind => ({
  atsType: TW_LOGIN,
  optionsClass: CommonConnectorOptionsDto,
  authorizedByLogin: true,
  setup: {
    flow: 'interactive-login',
    summary: 'Connects through the Login vendor’s sign-in: you sign in there once.',
    intro: 'Save the connector, then authorize access by signing in to the Login vendor.',
    fields: [],
  },
  defaultOptions: () => ({ ...DEFAULT_OPTIONS }),
  test: async () => ({
    ok: false,
    error: {
      code: 'AUTHORIZATION_REQUIRED',
      message: 'Save the connector, then Authorize: the sign-in is the test',
    },
  }),
  prepare: async (_accountId, _connectorId, config) => {
    context.validate(TwLoginConfigDto, config ?? {}, 'config');
    return {
      status: 'pending_authorization',
      config: {},
      options: { ...DEFAULT_OPTIONS },
      credentialsStored: false,
    };
  },
  changeConfig: async (connector, patch) => {
    context.validate(TwLoginConfigDto, patch, 'config');
    return { config: connector.config, connected: false };
  },
});
