import { sqlStatement } from '@connector/persistence';

/** A connector's advisory lock (class and key), which connection takes and holds it. */
export interface ConnectorLockValues {
  lockClass: number;
  connectorId: string;
}

/** Takes the connector's advisory lock if it is free (`locked`); never waits. */
export const TRY_CONNECTOR_LOCK = sqlStatement<ConnectorLockValues>(
  (p) => `SELECT pg_try_advisory_lock(${p.lockClass}::int, hashtext(${p.connectorId}::text)) AS locked`,
);

/** Gives the connector's advisory lock back. */
export const CONNECTOR_UNLOCK = sqlStatement<ConnectorLockValues>(
  (p) => `SELECT pg_advisory_unlock(${p.lockClass}::int, hashtext(${p.connectorId}::text))`,
);
