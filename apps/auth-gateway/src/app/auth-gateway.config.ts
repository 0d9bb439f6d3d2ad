import { Transform, Type } from 'class-transformer';
import { IsBoolean, IsInt, IsNotEmpty, IsString, Matches, Max, Min } from 'class-validator';
import { RequiredInProduction, ServiceConfig } from '@connector/service-kit';

export const SERVICE_NAME = 'auth-gateway';

const bool = ({ value }: { value: unknown }) => (typeof value === 'string' ? value === 'true' : value);

/** auth-gateway's environment, validated at boot. */
export class AuthGatewayConfig extends ServiceConfig {
  override PORT = 3001;
  /** Messages this process works on at once. */
  @Type(() => Number) @IsInt() @Min(1) @Max(500) PREFETCH = 20;

  /** "<keyId>:<base64 of 32 bytes>[,…]": the first seals new secrets, all open old ones. */
  @RequiredInProduction()
  @Matches(/^[\w.-]+:[A-Za-z0-9+/=]{40,}(,[\w.-]+:[A-Za-z0-9+/=]{40,})*$/, {
    message: 'ENCRYPTION_KEYS must be "<keyId>:<base64 of 32 bytes>[,…]"',
  })
  ENCRYPTION_KEYS = '';

  /** The platform's OAuth client at ATS-B (service configuration, never per customer); defaults: the sandbox's. */
  @RequiredInProduction() @IsString() @IsNotEmpty() ATS_B_CLIENT_ID = 'platform-client';
  @RequiredInProduction() @IsString() @IsNotEmpty() ATS_B_CLIENT_SECRET = 'platform-secret';
  @Matches(/^https?:\/\/\S+$/, { message: 'ATS_B_OAUTH_URL must be an http(s) URL' })
  ATS_B_OAUTH_URL = 'https://auth.bullhornstaffing.com/oauth';
  @Matches(/^https?:\/\/\S+$/, { message: 'ATS_B_REST_LOGIN_URL must be an http(s) URL' })
  ATS_B_REST_LOGIN_URL = 'https://rest.bullhornstaffing.com/rest-services';
  /** Where the recruiter's browser logs in, when it reaches ATS-B by another address than this service
   * does (docker compose: the host's port); empty: `${ATS_B_OAUTH_URL}/authorize`. */
  @Matches(/^(https?:\/\/\S+)?$/, { message: 'ATS_B_AUTHORIZE_URL must be an http(s) URL' })
  ATS_B_AUTHORIZE_URL = '';
  /** Where the ATS sends the browser back: connector-registry's public address + /oauth/ats-b/callback. */
  @RequiredInProduction()
  @Matches(/^https?:\/\/\S+$/, { message: 'ATS_B_REDIRECT_URI must be an http(s) URL' })
  ATS_B_REDIRECT_URI = 'http://127.0.0.1:3000/oauth/ats-b/callback';
  @Type(() => Number) @IsInt() @Min(60) @Max(3600) OAUTH_STATE_TTL_SECONDS = 600;

  /** Plain-http ATS addresses and private networks: for local mode and tests; off in production. */
  @Transform(bool) @IsBoolean() ATS_ALLOW_INSECURE_HTTP = process.env.NODE_ENV !== 'production';
  @Transform(bool) @IsBoolean() ATS_ALLOW_PRIVATE_NETWORKS = process.env.NODE_ENV !== 'production';
  /** How long a connection test may take in all. */
  @Type(() => Number) @IsInt() @Min(1000) @Max(60000) CONNECTION_TEST_TIMEOUT_MS = 10_000;
}
