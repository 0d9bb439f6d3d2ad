import { Inject, Injectable } from '@nestjs/common';
import { REGISTRY_CONFIG } from '../common/registry-config';
import type { ConnectorRegistryConfig } from '../connector-registry.config';
import { type AdminIdentity, type ApiKeyEntry, identify, parseApiKeys } from './api-keys';

/** The configured admin keys (digests only) and the lookup of a presented one. */
@Injectable()
export class ApiKeyService {
  private readonly entries: readonly ApiKeyEntry[];

  constructor(@Inject(REGISTRY_CONFIG) config: Pick<ConnectorRegistryConfig, 'ADMIN_API_KEYS'>) {
    this.entries = parseApiKeys(config.ADMIN_API_KEYS);
  }

  /** The identity behind an `Authorization` header value, or undefined for none or a wrong key. */
  authenticate(authorization: string | undefined): AdminIdentity | undefined {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '');
    return match ? identify(this.entries, match[1]) : undefined;
  }
}
