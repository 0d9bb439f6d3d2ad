import { Inject, Injectable } from '@nestjs/common';
import { ConnectorRegistryConfig, strictApiKeys } from '../connector-registry.config';
import { type AdminIdentity, type ApiKeyEntry, identify, parseApiKeys } from './api-keys';

type KeysConfig = Pick<
  ConnectorRegistryConfig,
  'ADMIN_API_KEYS' | 'NODE_ENV' | 'ADMIN_ID_SECRET' | 'ADMIN_ALLOW_WEAK_KEYS'
>;

/** The configured admin keys (digests only) and the lookup of a presented one. */
@Injectable()
export class ApiKeyService {
  private readonly entries: readonly ApiKeyEntry[];
  private readonly adminIdSecret: string;

  constructor(@Inject(ConnectorRegistryConfig) config: KeysConfig) {
    this.entries = parseApiKeys(config.ADMIN_API_KEYS, { strict: strictApiKeys(config) });
    // Production requires its own (config validation); local and test mode share this one.
    this.adminIdSecret = config.ADMIN_ID_SECRET || 'local-admin-id-secret';
  }

  /** The identity behind an `Authorization` header value, or undefined for none or a wrong key. */
  authenticate(authorization: string | undefined): AdminIdentity | undefined {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '');
    return match ? identify(this.entries, match[1], this.adminIdSecret) : undefined;
  }
}
