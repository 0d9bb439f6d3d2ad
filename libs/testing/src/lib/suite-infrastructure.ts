import { createTestDatabase, type TestDatabase } from './test-database';
import { createTestVhost, type TestVhost } from './test-vhost';

export interface SuiteInfrastructure {
  vhost: TestVhost;
  database: TestDatabase;
  /** DATABASE_URL and RABBITMQ_URL for the suite's service processes. */
  env: { DATABASE_URL: string; RABBITMQ_URL: string };
  /** Drops the database and the vhost and gives RABBITMQ_URL back its value from before. */
  drop(): Promise<void>;
}

/**
 * A RabbitMQ vhost and a database of the suite's own. RABBITMQ_URL points at the vhost until `drop()`, so
 * the sandboxes and clients the suite starts in-process use it too.
 */
export async function createSuiteInfrastructure(name: string): Promise<SuiteInfrastructure> {
  const previousRabbitUrl = process.env.RABBITMQ_URL;
  const vhost = await createTestVhost(name);
  process.env.RABBITMQ_URL = vhost.url;
  const database = await createTestDatabase(name);
  return {
    vhost,
    database,
    env: { DATABASE_URL: database.url, RABBITMQ_URL: vhost.url },
    drop: async () => {
      await database.drop();
      await vhost.drop();
      if (previousRabbitUrl === undefined) delete process.env.RABBITMQ_URL;
      else process.env.RABBITMQ_URL = previousRabbitUrl;
    },
  };
}
