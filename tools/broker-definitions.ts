/**
 * The deployments' broker users, from libs/messaging's broker-permissions.ts: a user per service, named after
 * it, and `platform` for the platform's microservices. deploy/rabbitmq/definitions.json is the reviewable
 * template (its password hashes are placeholders); `tools/broker-users.ts` fills them in at deploy time.
 */
import { join } from 'node:path';
import {
  BROKER_PRINCIPALS,
  type BrokerDefinitions,
  type BrokerPrincipal,
  type BrokerService,
  brokerDefinitions,
  brokerUsersSetting,
} from '@connector/messaging';

export const DEFINITIONS_PATH = join(__dirname, '..', 'deploy', 'rabbitmq', 'definitions.json');

/** In a deployment each principal's broker user is named after it. */
export const DEPLOYMENT_USERS = Object.fromEntries(
  BROKER_PRINCIPALS.map((principal) => [principal, principal]),
) as Record<BrokerPrincipal, string>;

/** RABBITMQ_USERS of the deployments (docker compose, the Kubernetes ConfigMap). */
export const DEPLOYMENT_RABBITMQ_USERS = brokerUsersSetting(
  DEPLOYMENT_USERS as Record<BrokerService, string>,
);

/** The Secret key holding a service's RABBITMQ_URL (Kubernetes), e.g. RABBITMQ_URL_AUTH_GATEWAY. */
export function rabbitmqUrlSecretKey(service: BrokerService): string {
  return `RABBITMQ_URL_${service.toUpperCase().replace(/-/g, '_')}`;
}

/** The file of a principal's generated password and of its RABBITMQ_URL, in the secrets directory. */
export const secretFiles = (principal: BrokerPrincipal) => ({
  password: `rabbitmq-password-${principal}`,
  url: `rabbitmq-url-${principal}`,
});

export const PASSWORD_HASH_PLACEHOLDER =
  'FILLED-IN-AT-DEPLOY-TIME: node dist/tools/broker-users.js --secrets <dir>';

/** The definitions with the given password hashes, or placeholders (the committed template). */
export function deploymentDefinitions(
  vhost = '/',
  passwordHashOf: (principal: BrokerPrincipal) => string = () => PASSWORD_HASH_PLACEHOLDER,
): BrokerDefinitions {
  return brokerDefinitions(
    vhost,
    Object.fromEntries(
      BROKER_PRINCIPALS.map((principal) => [
        principal,
        { user: DEPLOYMENT_USERS[principal], passwordHash: passwordHashOf(principal) },
      ]),
    ) as Record<BrokerPrincipal, { user: string; passwordHash: string }>,
  );
}

export function definitionsJson(definitions: BrokerDefinitions): string {
  return `${JSON.stringify(definitions, null, 2)}\n`;
}
