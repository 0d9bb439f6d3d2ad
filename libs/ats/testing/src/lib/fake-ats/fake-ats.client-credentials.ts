import { type ClientCredentialsSetup, SetupError } from '@connector/ats-core';
import { AuthErrorCode } from '@connector/contracts';
import { IsNotEmpty, IsString } from 'class-validator';

/** The fake ATS's config as the admin types it: one API key, secret. */
export class FakeAtsConfigDto {
  @IsString() @IsNotEmpty() apiKey!: string;
}

/** The one API key the fake ATS accepts. */
export const FAKE_ATS_GOOD_KEY = 'fake-key-that-works';

/**
 * The throwaway third ATS's client-credentials set-up, for tests that show auth-gateway's generic flow takes it
 * from an adapter folder: `{ ...fakeAtsAdapter, capabilities: [..., 'client-credentials'], clientCredentials:
 * fakeAtsClientCredentials }`. Its steps call nothing: one key works, any other is refused.
 */
export const fakeAtsClientCredentials: ClientCredentialsSetup = {
  configClass: FakeAtsConfigDto,
  secretFields: ['apiKey'],
  steps: () => ({
    verify: async ({ config, openStatuses }) => {
      if (config['apiKey'] !== FAKE_ATS_GOOD_KEY) {
        throw new SetupError(AuthErrorCode.AuthFailed, 'The Fake ATS refused the API key.');
      }
      const expiresAt = new Date(Date.now() + 3_600_000);
      return {
        baseUrl: null,
        clientId: null,
        secret: FAKE_ATS_GOOD_KEY,
        issued: {
          access: { accessToken: 'fake-access', accessTokenExpiresAt: expiresAt.toISOString() },
          expiresAt,
        },
        openStatuses: openStatuses ?? ['open'],
      };
    },
  }),
};
