import type { ConnectorSnapshot } from '@connector/contracts';
import { type AtsType, defaultJobMapping } from '@connector/ats-registry';

/**
 * A connected connector as the registry would describe it, with the default job mapping and a daily limit no
 * suite reaches (`ownDailyLimit: false` leaves the limit out, so the ATS's or the default one is obeyed).
 */
export function connectorSnapshot(fields: {
  id: string;
  accountId: string;
  type: AtsType;
  config: Record<string, unknown>;
  options?: Record<string, unknown>;
  ownDailyLimit?: boolean;
  name?: string;
}): ConnectorSnapshot {
  const limit = fields.ownDailyLimit === false ? {} : { dailyCallLimit: 1_000_000 };
  return {
    id: fields.id,
    accountId: fields.accountId,
    type: fields.type,
    name: fields.name ?? `${fields.type} test`,
    status: 'connected',
    options: { ...limit, ...fields.options },
    config: fields.config,
    mapping: {
      version: 1,
      mapping: defaultJobMapping(fields.type) as unknown as ConnectorSnapshot['mapping']['mapping'],
    },
    updatedAt: new Date().toISOString(),
  };
}
