import { randomBytes } from 'node:crypto';
import type { BrokerService } from '@connector/messaging';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import {
  dataSourceOptions,
  missingDatabaseRights,
  rowsOf,
  scramVerifier,
  runMigrations,
  type ServiceRole,
  tablesOf,
} from '@connector/persistence';
import {
  createTestDatabase,
  spawnService,
  freePort,
  startService,
  type ServiceProcess,
  type TestDatabase,
  useTestVhost,
} from '@connector/testing';
import { regrantServiceRoles, SERVICE_SCHEMAS, SERVICES, setUpServiceRoles } from './database-roles';
import { sqlModules } from './sql-statement-modules';

/** Postgres's "insufficient privilege": a table's right, or a row that row-level security refuses. */
const INSUFFICIENT_PRIVILEGE = '42501';

/**
 * Plans a statement as `session`'s role would run it, its parameters NULL: EXPLAIN checks the rights on every
 * table it names (a table's, then row-level security's), as running it would.
 */
async function planAs(session: Client, sql: string): Promise<void> {
  await session.query(`PREPARE role_check AS ${sql}`);
  try {
    const [row] = rowsOf(
      await session.query(
        `SELECT cardinality(parameter_types) AS "count" FROM pg_prepared_statements WHERE name = 'role_check'`,
      ),
    );
    const args = Array.from({ length: Number(row['count']) }, () => 'NULL').join(', ');
    await session.query(`EXPLAIN EXECUTE role_check${args ? `(${args})` : ''}`);
  } finally {
    await session.query('DEALLOCATE role_check');
  }
}

/** The error code of `sql` run as `session`'s role, or 'ok'. */
async function outcome(session: Client, sql: string, params: unknown[] = []): Promise<string> {
  try {
    await session.query(sql, params);
    return 'ok';
  } catch (error) {
    return (error as { code?: string }).code ?? (error as Error).message;
  }
}

/**
 * Each service as its own Postgres role (npm run db-roles): in a database of its own, every service's
 * migrations run as a migrator role (owner of the tables, as today's one role of an existing deployment),
 * which then sets up the roles. Each role can run its service's statements and pass its boot check; none
 * reads or writes another service's tables, nor another's rows of a shared table. Roles are the cluster's:
 * this suite's have a suffix of their own and are dropped after it.
 */
describe('per-service database roles (npm run db-roles)', () => {
  useTestVhost('db_roles');
  const suffix = `_t${randomBytes(4).toString('hex')}`;
  const migratorRole = `connector_migrator${suffix}`;
  let database: TestDatabase;
  let roles: ServiceRole[] = [];
  let migrator: Client;
  const sessions = new Map<string, Client>();
  const processes: ServiceProcess[] = [];
  const urlAs = (role: string, db = database) => {
    const url = new URL(db.url);
    url.username = role;
    return url.toString();
  };
  /** The database as an existing deployment's: its one role (here the migrator) owns it and its tables. */
  const ownedByMigrator = async (db: TestDatabase) => {
    const admin = new Client({ connectionString: db.url });
    await admin.connect();
    try {
      await admin.query(`ALTER DATABASE ${db.name} OWNER TO ${migratorRole}`);
      await admin.query(`ALTER SCHEMA public OWNER TO ${migratorRole}`);
    } finally {
      await admin.end();
    }
  };
  const migrate = async (service: BrokerService, db = database) => {
    const source = await new DataSource(
      dataSourceOptions({ url: urlAs(migratorRole, db), service, ...SERVICE_SCHEMAS[service] }),
    ).initialize();
    try {
      await runMigrations(source, SERVICE_SCHEMAS[service].shared);
    } finally {
      await source.destroy();
    }
  };
  const as = (service: string) => sessions.get(service)!;
  const roleOf = (service: string) => roles.find((r) => r.service === service)!.role;

  beforeAll(async () => {
    database = await createTestDatabase('db_roles');
    const admin = new Client({ connectionString: database.url });
    await admin.connect();
    try {
      await admin.query(`CREATE ROLE ${migratorRole} LOGIN CREATEROLE`);
    } finally {
      await admin.end();
    }
    await ownedByMigrator(database);
    for (const service of SERVICES) await migrate(service);
    migrator = new Client({ connectionString: urlAs(migratorRole) });
    await migrator.connect();
    // What an existing deployment has: rows written by its one role before the service roles.
    await migrator.query(
      `INSERT INTO erased_candidate (account_id, candidate_id) VALUES ('acct-1', 'cand-early')`,
    );
    await migrator.query(`INSERT INTO deleted_connector (connector_id) VALUES ('conn-early')`);
    await migrator.query(
      `INSERT INTO outbox_message (publisher, exchange, message_id, type, envelope)
       VALUES ('connector-registry', 'x', 'm-1', 't', '{}'), ('auth-gateway', 'x', 'm-2', 't', '{}')`,
    );
    roles = await setUpServiceRoles(migrator, () => randomBytes(12).toString('hex'), suffix);
    // Twice: what a second run (or the migrate step's regrant) does to a set-up database.
    roles = await setUpServiceRoles(migrator, () => randomBytes(12).toString('hex'), suffix);
    for (const { service, role } of roles) {
      const session = new Client({ connectionString: urlAs(role) });
      await session.connect();
      sessions.set(service, session);
    }
  }, 300_000);

  afterAll(async () => {
    await Promise.all(processes.map((p) => p.stop()));
    for (const session of sessions.values()) await session.end();
    await migrator?.end();
    await database?.drop();
    const admin = new Client({ connectionString: process.env.DATABASE_URL });
    await admin.connect();
    try {
      for (const role of [...roles.map((r) => r.role), migratorRole]) {
        await admin.query(`DROP ROLE IF EXISTS ${role}`);
      }
    } finally {
      await admin.end();
    }
  });

  it("lets each role run its service's hand-written statements, and a lib's where it holds the tables", async () => {
    const failures: string[] = [];
    let checked = 0;
    for (const module of await sqlModules()) {
      for (const statement of module.statements) {
        let allowedSomewhere = false;
        for (const { service, schema } of roles) {
          if (module.app && module.app !== service) continue;
          checked += 1;
          const refusal = await planAs(as(service), statement.sql).then(
            () => undefined,
            (error: { code?: string; message: string }) => error,
          );
          if (!refusal) {
            allowedSomewhere = true;
            continue;
          }
          // A lib's statement may be refused a table the service does not hold, and nothing else.
          const table = /^permission denied for table (\w+)$/.exec(refusal.message)?.[1];
          const foreign =
            refusal.code === INSUFFICIENT_PRIVILEGE && table && !tablesOf(schema).includes(table);
          if (module.app || !foreign) {
            failures.push(
              `${module.path} ${statement.name} as ${service}: ${refusal.code} ${refusal.message}`,
            );
          }
        }
        if (!allowedSomewhere)
          failures.push(`${module.path} ${statement.name}: no service's role may run it`);
      }
    }
    expect(failures).toEqual([]);
    expect(checked).toBeGreaterThan(100);
  });

  it('passes each service its boot check, and names what another service would lack', async () => {
    for (const service of SERVICES) {
      expect({
        service,
        missing: await missingDatabaseRights(as(service), SERVICE_SCHEMAS[service]),
      }).toEqual({
        service,
        missing: [],
      });
    }
    expect(await missingDatabaseRights(as('connector-registry'), SERVICE_SCHEMAS['auth-gateway'])).toEqual([
      'connector_credential (SELECT, INSERT, UPDATE, DELETE)',
      'oauth_state (SELECT, INSERT, UPDATE, DELETE)',
      'rate_limit_bucket (SELECT, INSERT, UPDATE, DELETE)',
    ]);
    expect(await missingDatabaseRights(as('vacancy-sync'), SERVICE_SCHEMAS['candidate-sync'])).toEqual(
      expect.arrayContaining([
        'candidate_link (SELECT, INSERT, UPDATE, DELETE)',
        'keyed_lease (SELECT, INSERT, UPDATE, DELETE)',
        'sequence keyed_lease_token (USAGE)',
      ]),
    );
  });

  it("refuses every role every table that is not its service's", async () => {
    const { rows } = await migrator.query<{ name: string }>(
      `SELECT relname AS name FROM pg_class WHERE relnamespace = 'public'::regnamespace AND relkind = 'r'`,
    );
    const refusedRead: string[] = [];
    for (const { service, schema } of roles) {
      const own = tablesOf(schema);
      for (const { name } of rows.filter((table) => !own.includes(table.name))) {
        if ((await outcome(as(service), `SELECT * FROM ${name} LIMIT 1`)) !== INSUFFICIENT_PRIVILEGE) {
          refusedRead.push(`${service} can read ${name}`);
        }
      }
    }
    expect(refusedRead).toEqual([]);
    // The cases of issue 34 by name: the secrets, their addresses, the failure log's bodies.
    expect(await outcome(as('connector-registry'), 'SELECT secret FROM connector_credential')).toBe(
      INSUFFICIENT_PRIVILEGE,
    );
    expect(
      await outcome(as('vacancy-sync'), `UPDATE connector_credential SET base_url = 'https://evil.test'`),
    ).toBe(INSUFFICIENT_PRIVILEGE);
    for (const worker of ['auth-gateway', 'vacancy-sync', 'candidate-sync', 'document-service']) {
      expect({ worker, read: await outcome(as(worker), 'SELECT body FROM dead_letter') }).toEqual({
        worker,
        read: INSUFFICIENT_PRIVILEGE,
      });
    }
    // Nobody but the migrator creates tables.
    expect(await outcome(as('candidate-sync'), 'CREATE TABLE stash (x text)')).toBe(INSUFFICIENT_PRIVILEGE);
  });

  it('shows each role only its own rows of a shared table, earlier rows as every holder own', async () => {
    const publishers = async (service: string) =>
      (await as(service).query<{ publisher: string }>('SELECT DISTINCT publisher FROM outbox_message')).rows;
    expect(await publishers('connector-registry')).toEqual([{ publisher: 'connector-registry' }]);
    expect(await publishers('auth-gateway')).toEqual([{ publisher: 'auth-gateway' }]);
    expect(
      await outcome(
        as('connector-registry'),
        `INSERT INTO outbox_message (publisher, exchange, message_id, type, envelope)
         VALUES ('auth-gateway', 'x', 'forged', 't', '{}')`,
      ),
    ).toBe(INSUFFICIENT_PRIVILEGE);

    const erased = async (service: string, candidate: string) =>
      (
        await as(service).query(
          `SELECT 1 FROM erased_candidate WHERE account_id = 'acct-1' AND candidate_id = $1`,
          [candidate],
        )
      ).rowCount;
    // The tombstone from before the roles is every candidate-data service's own now.
    for (const service of ['connector-registry', 'candidate-sync', 'document-service']) {
      expect({ service, early: await erased(service, 'cand-early') }).toEqual({ service, early: 1 });
    }
    await as('candidate-sync').query(
      `INSERT INTO erased_candidate (account_id, candidate_id) VALUES ('acct-1', 'cand-2') ON CONFLICT DO NOTHING`,
    );
    expect(await erased('candidate-sync', 'cand-2')).toBe(1);
    expect(await erased('document-service', 'cand-2')).toBe(0);
    // Nor can another service take a service's tombstone away.
    await as('document-service').query(`DELETE FROM erased_candidate WHERE candidate_id = 'cand-2'`);
    expect(await erased('candidate-sync', 'cand-2')).toBe(1);

    const deleted = async (service: string) =>
      (await as(service).query<{ id: string }>('SELECT connector_id AS id FROM deleted_connector ORDER BY 1'))
        .rows;
    await as('vacancy-sync').query(`INSERT INTO deleted_connector (connector_id) VALUES ('conn-v')`);
    expect(await deleted('vacancy-sync')).toEqual([{ id: 'conn-early' }, { id: 'conn-v' }]);
    expect(await deleted('candidate-sync')).toEqual([{ id: 'conn-early' }]);

    expect(
      await outcome(
        as('candidate-sync'),
        `INSERT INTO keyed_lease (namespace, key, owner, expires_at) VALUES ('document-service', 'k', 'o', now())`,
      ),
    ).toBe(INSUFFICIENT_PRIVILEGE);
    expect(await outcome(as('candidate-sync'), `SELECT nextval('keyed_lease_token')`)).toBe('ok');
    expect(await outcome(as('vacancy-sync'), `SELECT nextval('keyed_lease_token')`)).toBe(
      INSUFFICIENT_PRIVILEGE,
    );
    // The migrator, as the tables' owner, still sees every row.
    const { rows } = await migrator.query<{ owners: number }>(
      `SELECT count(DISTINCT owner_role)::int AS owners FROM erased_candidate`,
    );
    expect(rows[0].owners).toBe(3);
    expect(roleOf('candidate-sync')).toBe(`candidate_sync${suffix}`);
  });

  it('sets up the roles of a new database before its migrations, the migrate step granting after them', async () => {
    const fresh = await createTestDatabase('db_roles_new');
    const owner = new Client({ connectionString: urlAs(migratorRole, fresh) });
    const vacancies = new Client({ connectionString: urlAs(roleOf('vacancy-sync'), fresh) });
    try {
      await ownedByMigrator(fresh);
      await owner.connect();
      // As a database made by Postgres 14 or earlier has it: anyone may create tables.
      await owner.query('GRANT CREATE ON SCHEMA public TO PUBLIC');
      await setUpServiceRoles(owner, () => randomBytes(12).toString('hex'), suffix);
      await migrate('vacancy-sync', fresh);
      await vacancies.connect();
      expect(await outcome(vacancies, 'SELECT * FROM vacancy_state')).toBe(INSUFFICIENT_PRIVILEGE);
      expect((await regrantServiceRoles(owner, suffix)).length).toBe(SERVICES.length);
      expect(await outcome(vacancies, 'SELECT * FROM vacancy_state')).toBe('ok');
      expect(await missingDatabaseRights(vacancies, SERVICE_SCHEMAS['vacancy-sync'])).toEqual([]);
      expect(await outcome(vacancies, 'CREATE TABLE stash (x text)')).toBe(INSUFFICIENT_PRIVILEGE);
    } finally {
      await vacancies.end().catch(() => undefined);
      await owner.end().catch(() => undefined);
      await fresh.drop();
    }
  });

  it('hands Postgres a password only as the SCRAM verifier Postgres itself would store', async () => {
    const admin = new Client({ connectionString: database.url });
    await admin.connect();
    try {
      // Postgres hashes a password given in clear with a salt of its own: the same salt must give the same.
      await admin.query(`ALTER ROLE ${migratorRole} PASSWORD 'correct horse battery'`);
      const { rows } = await admin.query<{ stored: string }>(
        `SELECT rolpassword AS stored FROM pg_authid WHERE rolname = $1`,
        [migratorRole],
      );
      const [, iterations, salt] = /^SCRAM-SHA-256\$(\d+):([^$]+)\$/.exec(rows[0].stored) ?? [];
      expect(scramVerifier('correct horse battery', Buffer.from(salt, 'base64'), Number(iterations))).toBe(
        rows[0].stored,
      );
    } finally {
      await admin.end();
    }
  });

  it("starts a service as its own role, and stops one at boot that has another's, naming what it lacks", async () => {
    const env = (role: string) => ({
      DATABASE_URL: urlAs(role),
      RABBITMQ_URL: process.env.RABBITMQ_URL!,
      MIGRATIONS_RUN: 'false',
    });
    processes.push(await startService('vacancy-sync', env(roleOf('vacancy-sync'))));
    const wrong = spawnService('vacancy-sync', env(roleOf('candidate-sync')), await freePort());
    processes.push(wrong);
    let timer: NodeJS.Timeout | undefined;
    const ended = await Promise.race([
      wrong.exited,
      new Promise((resolve) => (timer = setTimeout(resolve, 60_000, 'still running after 60 s'))),
    ]);
    clearTimeout(timer);
    expect(ended).toBe(1);
    const said = wrong.output.join('\n');
    expect(said).toContain(`vacancy-sync cannot start: database role "${roleOf('candidate-sync')}" lacks`);
    expect(said).toContain('vacancy_state (SELECT, INSERT, UPDATE, DELETE)');
  }, 120_000);
});
