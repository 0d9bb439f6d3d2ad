import {
  BROKER_PRINCIPALS,
  BROKER_SERVICES,
  type BrokerPrincipal,
  type BrokerService,
} from '../lib/broker-permissions';
import {
  type BrokerAccounts,
  brokerUsersSetting,
  newBrokerPassword,
  removeBrokerUsers,
  setUpBrokerUsers,
} from '../lib/broker-setup';
import type { TopologySettings } from '../lib/broker-permissions';
import { brokerUrlAs, brokerVhostOf } from '../lib/broker-url';

/** Broker users of a vhost of their own, for tests and other throwaway environments. */
export interface VhostBrokerUsers {
  /** The URL of a principal's user on the vhost. */
  urlOf(principal: BrokerPrincipal): string;
  userOf(principal: BrokerPrincipal): string;
  /** RABBITMQ_URL and RABBITMQ_USERS for one of our services, as in production. */
  envOf(service: BrokerService): { RABBITMQ_URL: string; RABBITMQ_USERS: string };
  /** Deletes the users. */
  remove(): Promise<void>;
}

/**
 * A user per service and one for the platform, with their production permissions, on the vhost of
 * `adminUrl` (not `/`), and every service's queues with `topology`'s retry delays and limits (production's
 * by default). Users are broker-wide, so they are named `<vhost>.<principal>`. Fails when neither the
 * management API nor rabbitmqctl is at hand.
 */
export async function setUpVhostBrokerUsers(
  adminUrl: string,
  topology?: TopologySettings,
): Promise<VhostBrokerUsers> {
  const vhost = brokerVhostOf(adminUrl);
  if (vhost === '/') throw new Error('throwaway broker users need a vhost of their own, not /');
  const accounts = Object.fromEntries(
    BROKER_PRINCIPALS.map((principal) => [
      principal,
      { user: `${vhost}.${principal}`, password: newBrokerPassword() },
    ]),
  ) as BrokerAccounts;
  const result = await setUpBrokerUsers({ adminUrl, accounts, topology });
  if ('unavailable' in result) throw new Error(`cannot create broker users: ${result.unavailable}`);
  const usersSetting = brokerUsersSetting(
    Object.fromEntries(BROKER_SERVICES.map((service) => [service, accounts[service].user])) as Record<
      BrokerService,
      string
    >,
  );
  const urlOf = (principal: BrokerPrincipal) =>
    brokerUrlAs(adminUrl, accounts[principal].user, accounts[principal].password);
  return {
    urlOf,
    userOf: (principal) => accounts[principal].user,
    envOf: (service) => ({ RABBITMQ_URL: urlOf(service), RABBITMQ_USERS: usersSetting }),
    remove: () =>
      removeBrokerUsers({ adminUrl, users: BROKER_PRINCIPALS.map((principal) => accounts[principal].user) }),
  };
}
