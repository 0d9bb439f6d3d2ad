import { fleetQueryPlans } from '@connector/persistence/testing';
import { createTestDatabase } from '@connector/testing';
import { SERVICE_NAME } from './auth-gateway.config';
import { AUTH_GATEWAY_SCHEMA } from './auth-gateway.schema';
import { CredentialsRepository } from './credentials/credentials.repository';

const CONNECTORS = 10_000;

/**
 * auth-gateway at fleet size: 10 000 connectors' credentials (a few refused) in a migrated schema; what a
 * credential request reads, a renewal's lease, and what the re-check and renew-ahead ticks read reach them
 * through an index (EXPLAIN):
 * the gateway's work per connector does not grow with the fleet.
 */
describe('auth-gateway query plans at fleet size', () => {
  const plans = fleetQueryPlans({
    database: () => createTestDatabase('gateway_plans'),
    schema: { service: SERVICE_NAME, ...AUTH_GATEWAY_SCHEMA },
    bigTables: ['connector_credential'],
    fill: [
      // Most access in use, renewed ahead over the next 10 minutes (a few are due now).
      {
        sql: `INSERT INTO connector_credential (connector_id, account_id, ats_type, state, secret, recheck_at,
                                         access_expires_at, access_fingerprint, renew_at, in_use)
       SELECT 'c-' || n, 'acct-' || (n % 2500), CASE WHEN n % 3 = 0 THEN 'ats-b' ELSE 'ats-a' END,
              CASE WHEN n % 50 = 0 THEN 'rejected' ELSE 'active' END, '{"v":1}'::jsonb,
              CASE WHEN n % 50 = 0 THEN now() + make_interval(secs => n % 600) END,
              now() + make_interval(secs => n % 600), 'fp-' || n,
              now() + make_interval(secs => n % 600 - 5), n % 7 <> 0
         FROM generate_series(1, $1::int) n`,
        params: [CONNECTORS],
      },
    ],
    statements: async ({ db, record }) => {
      const credentials = new CredentialsRepository(db);
      await record("a connector's credentials (every request)", () => credentials.find('c-4242'));
      await record('the re-check tick: refused secrets now due', () => credentials.dueForRecheck());
      await record('a renewal under its lease', () =>
        credentials.withRenewalLease(
          'c-4242',
          async (leased) => {
            await leased.find();
            await leased.update({ accessExpiresAt: new Date() });
          },
          60_000,
        ),
      );
      await record('a worker got this access: renew it ahead', () => credentials.markInUse('c-4343', 'fp'));
      await record('the renew-ahead tick: access in use now due', () =>
        credentials.claimDueRenewals(200, 30_000),
      );
    },
  });

  it('reaches connector_credential through its indexes only', async () => {
    expect(plans.statements.length).toBeGreaterThanOrEqual(7);
    expect(await plans.wholeTableScans()).toEqual([]);
  });
});
