import type { ConnectorSnapshot, ConnectorStatus } from '@connector/contracts';
import type { JobMappingEntity } from '../mapping/job-mapping.entity';
import type { RunEntity } from '../runs/run.entity';
import { type RunView, toRunView } from '../runs/run.view';
import type { ConnectorEntity } from './connector.entity';

/** A connector as the admin API shows it (CONTRACT.md section 2); never a secret. */
export interface ConnectorView {
  id: string;
  accountId: string;
  type: string;
  name: string;
  status: ConnectorStatus;
  options: Record<string, unknown>;
  config: Record<string, unknown>;
  createdAt: string;
  updatedAt: string;
  lastRun?: RunView;
}

export function toConnectorView(connector: ConnectorEntity, lastRun?: RunEntity | null): ConnectorView {
  return {
    id: connector.id,
    accountId: connector.accountId,
    type: connector.type,
    name: connector.name,
    status: connector.status,
    options: connector.options,
    config: connector.config,
    createdAt: connector.createdAt.toISOString(),
    updatedAt: connector.updatedAt.toISOString(),
    ...(lastRun ? { lastRun: toRunView(lastRun) } : {}),
  };
}

/** What workers get from `connector.lookup.requested`. */
export function toSnapshot(connector: ConnectorEntity, mapping: JobMappingEntity | null): ConnectorSnapshot {
  return {
    id: connector.id,
    accountId: connector.accountId,
    type: connector.type,
    name: connector.name,
    status: connector.status,
    options: connector.options,
    config: connector.config,
    mapping: mapping
      ? { version: mapping.version, mapping: { ...mapping.mapping } }
      : { version: 0, mapping: {} },
    version: snapshotVersion(connector, mapping),
    updatedAt: connector.updatedAt.toISOString(),
  };
}

/** Both numbers only grow (a mapping rollback is a new version), so their sum grows with every change. */
export function snapshotVersion(connector: ConnectorEntity, mapping: { version: number } | null): number {
  return connector.version + (mapping?.version ?? 0);
}
