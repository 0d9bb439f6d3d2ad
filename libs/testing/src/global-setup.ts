import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createExchanges } from './lib/shared-exchanges';
import { resolveTestServices } from './lib/test-services';

/** Jest globalSetup for integration tests: decides once where Postgres and RabbitMQ are. */
export default async function globalSetup(): Promise<void> {
  const services = await resolveTestServices();
  process.env.DATABASE_URL = services.databaseUrl;
  process.env.RABBITMQ_URL = services.rabbitmqUrl;
  (globalThis as { __TEST_SERVICES__?: typeof services }).__TEST_SERVICES__ = services;
  // What the broker set-up does before any service starts (services only check the exchanges). Jest's path
  // aliases do not apply to a globalSetup: the contracts lib is found through tsconfig.base.json's.
  const root = join(__dirname, '..', '..', '..');
  const { compilerOptions } = JSON.parse(readFileSync(join(root, 'tsconfig.base.json'), 'utf8')) as {
    compilerOptions: { paths: Record<string, string[]> };
  };
  const [contractsPath = 'libs/contracts/src/index.ts'] = compilerOptions.paths['@connector/contracts'] ?? [];
  const contracts = (await import(join(root, contractsPath))) as typeof import('@connector/contracts');
  await createExchanges(services.rabbitmqUrl, Object.values(contracts.Exchange));
}
