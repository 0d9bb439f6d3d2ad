import { OUTBOX_SCHEMA } from '@connector/persistence';
import { DAILY_QUOTA_SCHEMA, RATE_LIMIT_BUCKET_SCHEMA } from '@connector/rate-limiter';
import type { ServiceCoreOptions } from '@connector/service-kit';
import { ConnectorCredentialEntity } from './credentials/connector-credential.entity';
import { AuthGatewayTables1763700000100 } from './migrations/1763700000100-auth-gateway-tables';
import { CredentialRefreshMarker1763700000110 } from './migrations/1763700000110-credential-refresh-marker';
import { OAuthStatePkce1763700000120 } from './migrations/1763700000120-oauth-state-pkce';
import { CredentialGeneration1763700000130 } from './migrations/1763700000130-credential-generation';
import { CredentialRecheck1763700000140 } from './migrations/1763700000140-credential-recheck';
import { CredentialAtsTypeByRegistry1763700000150 } from './migrations/1763700000150-credential-ats-type-by-registry';
import { CredentialRenewalLease1763700000160 } from './migrations/1763700000160-credential-renewal-lease';
import { sealBindingMigration } from './migrations/1764000001000-seal-binding';
import { OAuthStateAtsType1764000009000 } from './migrations/1764000009000-oauth-state-ats-type';
import { OAuthStateEntity } from './oauth/oauth-state.entity';

/**
 * auth-gateway's migrations. Re-sealing the secrets of the old format (1764000001000) opens them with
 * `encryptionKeys`: the gateway passes its ENCRYPTION_KEYS.
 */
export function authGatewayMigrations(encryptionKeys: string) {
  return [
    AuthGatewayTables1763700000100,
    CredentialRefreshMarker1763700000110,
    OAuthStatePkce1763700000120,
    CredentialGeneration1763700000130,
    CredentialRecheck1763700000140,
    CredentialAtsTypeByRegistry1763700000150,
    CredentialRenewalLease1763700000160,
    sealBindingMigration(encryptionKeys),
    OAuthStateAtsType1764000009000,
  ];
}

/**
 * auth-gateway's tables (entities and the migrations that build them), the outbox, through which its
 * status changes (auth_failed, connected again) are published, the ATS daily quota, and the rate limit
 * buckets that hold connection tests per account across replicas. Its migrations are given no keys: enough
 * for a database holding no secret of the old format (tests); the service runs authGatewayMigrations.
 */
export const AUTH_GATEWAY_SCHEMA = {
  entities: [ConnectorCredentialEntity, OAuthStateEntity],
  migrations: authGatewayMigrations(''),
  // The daily quota: ATS-A token requests are planned on it like every other call.
  shared: [OUTBOX_SCHEMA, DAILY_QUOTA_SCHEMA, RATE_LIMIT_BUCKET_SCHEMA],
} satisfies Pick<ServiceCoreOptions, 'entities' | 'migrations' | 'shared'>;
