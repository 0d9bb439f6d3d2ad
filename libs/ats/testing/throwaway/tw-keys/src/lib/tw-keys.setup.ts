import { AtsError, checkAtsUrlPolicy } from '@connector/ats-http';
import {
  type ClientCredentialsSetup,
  CommonConnectorOptionsDto,
  type ConnectorKind,
  type ConnectorKindContext,
  type CredentialIssuer,
  type CredentialIssuerDeps,
  SetupError,
} from '@connector/ats-core';
import { AuthErrorCode, credentialFingerprint } from '@connector/contracts';
import { IsNotEmpty, IsOptional, IsString, MaxLength } from 'class-validator';
import { normalizeTwKeysBaseUrl, requestTwKeysToken, TwKeysClient } from './tw-keys.client';

export const TW_KEYS = 'tw-keys';

/** The API client's three parts as the admin types them; only the address and the client id stay in the registry. */
export class TwKeysConfigDto {
  @IsString() @IsNotEmpty() @MaxLength(500) baseUrl!: string;
  @IsString() @IsNotEmpty() @MaxLength(200) clientId!: string;
  @IsString() @IsNotEmpty() @MaxLength(500) clientSecret!: string;
}

/** A change of credentials: the secret always, as the whole set is tested again. */
export class TwKeysConfigPatchDto {
  @IsOptional() @IsString() @IsNotEmpty() @MaxLength(500) baseUrl?: string;
  @IsOptional() @IsString() @IsNotEmpty() @MaxLength(200) clientId?: string;
  @IsString() @IsNotEmpty() @MaxLength(500) clientSecret!: string;
}

const DEFAULT_OPTIONS = { syncIntervalMinutes: 15, fullSyncEveryHours: 24 };

/** Its connectors in the admin API: an API client typed in, tested and stored by auth-gateway. */
export const twKeysConnectorKind = (context: ConnectorKindContext): ConnectorKind => ({
  atsType: TW_KEYS,
  optionsClass: CommonConnectorOptionsDto,
  authorizedByLogin: false,
  setup: {
    flow: 'client-credentials',
    summary: 'Connects with an API client: address, client ID and client secret.',
    intro: 'Enter the API client from your Keys vendor account, test the connection, then save.',
    fields: [
      { name: 'baseUrl', in: 'config', label: 'Address', kind: 'url', required: true },
      { name: 'clientId', in: 'config', label: 'Client ID', kind: 'text', required: true },
      { name: 'clientSecret', in: 'config', label: 'Client secret', kind: 'secret', required: true },
    ],
  },
  defaultOptions: () => ({ ...DEFAULT_OPTIONS }),
  test: (accountId, config) =>
    context.credentials.test(TW_KEYS, accountId, { ...context.validate(TwKeysConfigDto, config, 'config') }),
  prepare: async (accountId, connectorId, config) => {
    const input = context.validate(TwKeysConfigDto, config, 'config');
    const saved = await context.credentials.save(TW_KEYS, accountId, connectorId, { ...input });
    return {
      status: 'connected',
      config: { baseUrl: saved.baseUrl, clientId: input.clientId },
      options: { ...DEFAULT_OPTIONS },
      credentialsStored: true,
    };
  },
  changeConfig: async (connector, patch) => {
    const input = context.validate(TwKeysConfigPatchDto, patch, 'config');
    const clientId = input.clientId ?? String(connector.config['clientId'] ?? '');
    const saved = await context.credentials.save(TW_KEYS, connector.accountId, connector.id, {
      baseUrl: input.baseUrl ?? String(connector.config['baseUrl'] ?? ''),
      clientId,
      clientSecret: input.clientSecret,
    });
    return { config: { baseUrl: saved.baseUrl, clientId }, connected: true };
  },
});

/** auth-gateway's set-up steps: the address checked, a token, one page of jobs read. */
export const twKeysClientCredentials: ClientCredentialsSetup = {
  configClass: TwKeysConfigDto,
  secretFields: ['clientSecret'],
  steps: ({ guard }) => ({
    async verify({ config, timeoutMs }) {
      const { clientId, clientSecret } = config as unknown as TwKeysConfigDto;
      let baseUrl: string;
      try {
        baseUrl = normalizeTwKeysBaseUrl(String(config['baseUrl']));
        await checkAtsUrlPolicy(baseUrl, guard.allowance);
      } catch (error) {
        throw new SetupError(AuthErrorCode.InvalidUrl, (error as Error).message);
      }
      const token = await requestTwKeysToken(baseUrl, clientId, clientSecret, { guard, timeoutMs });
      const client = new TwKeysClient({ guard, timeoutMs, access: async () => ({ baseUrl, ...token }) });
      await client.jobs(0, 1);
      const expiresAt = new Date(Date.now() + token.expiresInSeconds * 1000 - 30_000);
      return {
        baseUrl,
        clientId,
        secret: clientSecret,
        issued: {
          access: { accessToken: token.accessToken, accessTokenExpiresAt: expiresAt.toISOString() },
          expiresAt,
        },
        openStatuses: [],
      };
    },
    explain: (error) =>
      error instanceof AtsError && error.kind === 'auth'
        ? new SetupError(
            AuthErrorCode.AuthFailed,
            'The Keys vendor refused the client ID or client secret. Copy both again from Admin → API clients.',
          )
        : undefined,
  }),
};

/** auth-gateway's part: a new token asked with the stored secret (the vendor has no refresh token). */
export const twKeysCredentialIssuer = ({ guard }: CredentialIssuerDeps): CredentialIssuer => ({
  atsType: TW_KEYS,
  async renew(input) {
    if (!input.baseUrl || !input.clientId)
      throw new Error(`connector ${input.connectorId} has no Keys vendor address`);
    const token = await requestTwKeysToken(input.baseUrl, input.clientId, input.secret, {
      guard,
      timeoutMs: 15_000,
    });
    const expiresAt = new Date(Date.now() + token.expiresInSeconds * 1000 - 30_000);
    return {
      access: { accessToken: token.accessToken, accessTokenExpiresAt: expiresAt.toISOString() },
      expiresAt,
    };
  },
  revalidate: async () => undefined,
  toAtsAccess: (input, access, expiresAt) => ({
    type: TW_KEYS,
    baseUrl: input.baseUrl ?? '',
    accessToken: access.accessToken,
    expiresAt: expiresAt.toISOString(),
  }),
  fingerprintOf: (access) => credentialFingerprint(access.accessToken),
});
