import { resolveTestServices } from './lib/test-services';

/**
 * Jest globalSetup for integration tests: decides once where Postgres and RabbitMQ are. These are admin URLs
 * (the default vhost, the `test` database): each suite makes its own vhost and database from them
 * (createTestVhost, createTestDatabase), and the hermetic guard refuses the default vhost itself.
 */
export default async function globalSetup(): Promise<void> {
  const services = await resolveTestServices();
  process.env.DATABASE_URL = services.databaseUrl;
  process.env.RABBITMQ_URL = services.rabbitmqUrl;
  (globalThis as { __TEST_SERVICES__?: typeof services }).__TEST_SERVICES__ = services;
}
