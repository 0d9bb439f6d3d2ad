import type { ConnectorSnapshot } from '@connector/contracts';

/** A connected connector as the registry would describe it, with a daily limit no suite reaches. */
export function connectorSnapshot(fields: {
  id: string;
  accountId: string;
  type: 'ats-a' | 'ats-b';
  config: Record<string, unknown>;
  options?: Record<string, unknown>;
  name?: string;
  mapping?: ConnectorSnapshot['mapping'];
}): ConnectorSnapshot {
  return {
    id: fields.id,
    accountId: fields.accountId,
    type: fields.type,
    name: fields.name ?? `${fields.type} test`,
    status: 'connected',
    options: { dailyCallLimit: 1_000_000, ...fields.options },
    config: fields.config,
    mapping: fields.mapping ?? { version: 1, mapping: {} },
    updatedAt: new Date().toISOString(),
  };
}
