/**
 * `npm run broker-users`: rewrites deploy/rabbitmq/definitions.json (the template) from libs/messaging's
 * broker-permissions.ts. At deploy time (compiled: `node dist/tools/broker-users.js`):
 *
 *   --secrets <dir> --url <amqp[s]://host:port[/vhost]>
 *       keeps a generated password per broker user in <dir> (0600, kept across runs) and writes
 *       <dir>/rabbitmq-definitions.json (with password hashes, for the broker to import) and
 *       <dir>/rabbitmq-url-<user> (each one's RABBITMQ_URL)
 *   --apply
 *       also creates the users on the broker now, as the administrator of RABBITMQ_ADMIN_URL: through the
 *       management API (RABBITMQ_MANAGEMENT_URL, default port 15672), or rabbitmqctl on this machine
 *   --keep
 *       the broker keeper: as the administrator of RABBITMQ_ADMIN_URL, declares every service's queues and
 *       bindings again every 5 s until stopped (services may declare none; a lost queue comes back)
 *
 * Passwords are never printed.
 */
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import {
  BROKER_PRINCIPALS,
  type BrokerAccounts,
  brokerUrlAs,
  brokerVhostOf,
  keepBrokerTopology,
  newBrokerPassword,
  rabbitPasswordHash,
  setUpBrokerUsers,
} from '@connector/messaging';
import {
  DEFINITIONS_PATH,
  DEPLOYMENT_USERS,
  definitionsJson,
  deploymentDefinitions,
  secretFiles,
} from './broker-definitions';

function option(name: string): string | undefined {
  const index = process.argv.indexOf(name);
  return index >= 0 ? process.argv[index + 1] : undefined;
}

function fail(line: string): never {
  process.stderr.write(`✖ ${line}\n`);
  process.exit(1);
}

function writeSecret(path: string, text: string, mode = 0o600): void {
  writeFileSync(path, text, { mode });
  chmodSync(path, mode); // also when the file was there before
}

async function main(): Promise<void> {
  if (process.argv.includes('--keep')) {
    const adminUrl =
      process.env.RABBITMQ_ADMIN_URL ?? fail('--keep needs RABBITMQ_ADMIN_URL (an administrator)');
    keepBrokerTopology({
      adminUrl,
      onError: (error) => process.stderr.write(`✖ could not declare the topology: ${error.message}\n`),
    });
    process.stdout.write("✓ keeping every service's queues and bindings declared (every 5 s)\n");
    return;
  }
  const secrets = option('--secrets');
  if (!secrets) {
    writeFileSync(DEFINITIONS_PATH, definitionsJson(deploymentDefinitions()));
    process.stdout.write(`✎ ${relative(process.cwd(), DEFINITIONS_PATH)} written\n`);
    return;
  }
  const url = option('--url') ?? fail('--secrets needs --url <amqp[s]://host:port[/vhost]>');
  mkdirSync(secrets, { recursive: true });
  const accounts = {} as BrokerAccounts;
  for (const principal of BROKER_PRINCIPALS) {
    const file = join(secrets, secretFiles(principal).password);
    const password = existsSync(file) ? readFileSync(file, 'utf8').trim() : newBrokerPassword();
    writeSecret(file, password);
    accounts[principal] = { user: DEPLOYMENT_USERS[principal], password };
    writeSecret(
      join(secrets, secretFiles(principal).url),
      brokerUrlAs(url, accounts[principal].user, password),
    );
  }
  const definitions = deploymentDefinitions(brokerVhostOf(url), (principal) =>
    rabbitPasswordHash(accounts[principal].password),
  );
  writeSecret(join(secrets, 'rabbitmq-definitions.json'), definitionsJson(definitions));
  process.stdout.write(
    `✓ broker users ${BROKER_PRINCIPALS.join(', ')}: passwords, URLs and rabbitmq-definitions.json in ${secrets}\n`,
  );
  if (process.argv.includes('--apply')) {
    const adminUrl =
      process.env.RABBITMQ_ADMIN_URL ?? fail('--apply needs RABBITMQ_ADMIN_URL (an administrator)');
    // A broker that has just started may not answer on its management port yet: a minute's patience.
    let result = await setUpBrokerUsers({
      adminUrl,
      managementUrl: process.env.RABBITMQ_MANAGEMENT_URL,
      accounts,
    });
    for (let attempt = 1; 'unavailable' in result && attempt < 30; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 2_000));
      result = await setUpBrokerUsers({
        adminUrl,
        managementUrl: process.env.RABBITMQ_MANAGEMENT_URL,
        accounts,
      });
    }
    if ('unavailable' in result) fail(`cannot set up the broker users: ${result.unavailable}`);
    process.stdout.write(`✓ broker users set up with the ${result.method}\n`);
  }
}

main().catch((error: unknown) => fail((error as Error).message));
