import type { ConsumeMessage } from 'amqplib';
import { Exchange, Header, type MessageType } from '@connector/contracts';
import {
  BROKER_SERVICES,
  type BrokerPrincipal,
  type BrokerService,
  MESSAGE_PUBLISHERS,
  SERVICE_CONSUMES,
} from './broker-permissions';
import { queueExchangeName } from './topology';

export class BrokerUsersFormatError extends Error {}

/**
 * Which broker user each of our services connects as (`RABBITMQ_USERS`: `<service>:<user>[,…]`, `*:<user>`
 * for all), so that a consumer can tell from the broker-validated `user_id` which service published.
 */
export class BrokerUsers {
  private constructor(private readonly users: Readonly<Record<BrokerService, string>>) {}

  /**
   * An empty setting is local mode: every service shares `ownUser` (the user of RABBITMQ_URL), so the
   * check still requires a `user_id` but cannot tell our services apart.
   */
  static parse(setting: string, ownUser: string): BrokerUsers {
    return new BrokerUsers(parseBrokerUsers(setting) ?? allAs(ownUser));
  }

  of(service: BrokerService): string {
    return this.users[service];
  }

  /** Services that share a broker user, which the broker cannot tell apart. */
  shared(): BrokerService[] {
    return BROKER_SERVICES.filter((service) =>
      BROKER_SERVICES.some((other) => other !== service && this.users[other] === this.users[service]),
    );
  }
}

/** The map `RABBITMQ_USERS` gives, every service named; undefined when the setting is empty. */
export function parseBrokerUsers(setting: string): Record<BrokerService, string> | undefined {
  if (!setting.trim()) return undefined;
  const users: Partial<Record<BrokerService, string>> = {};
  for (const entry of setting.split(',')) {
    const separator = entry.indexOf(':');
    const name = entry.slice(0, separator).trim();
    const user = entry.slice(separator + 1).trim();
    if (separator < 1 || !user) {
      throw new BrokerUsersFormatError(`"${entry.trim()}" is not <service>:<user>`);
    }
    if (name === '*') Object.assign(users, allAs(user));
    else if ((BROKER_SERVICES as readonly string[]).includes(name)) users[name as BrokerService] = user;
    else throw new BrokerUsersFormatError(`"${name}" is not one of ${BROKER_SERVICES.join(', ')} or *`);
  }
  const missing = BROKER_SERVICES.filter((service) => !users[service]);
  if (missing.length > 0) throw new BrokerUsersFormatError(`no user for ${missing.join(', ')}`);
  return users as Record<BrokerService, string>;
}

function allAs(user: string): Record<BrokerService, string> {
  return Object.fromEntries(BROKER_SERVICES.map((service) => [service, user])) as Record<
    BrokerService,
    string
  >;
}

/**
 * Says why a message must not be handled (its publisher may not send it), or undefined. Records the
 * publisher in `x-published-by` so that the copies this service publishes again keep it.
 */
export type PublisherCheck = (message: ConsumeMessage, routingKey: string) => string | undefined;

/**
 * The consumer's side of MESSAGE_PUBLISHERS. The publisher is the message's `user_id`, which the broker
 * validates against the connection's user, except on our own copies: a retry this service published, or a
 * replay from the registry's failure log, carry the original publisher in `x-published-by`. The platform's
 * events need no `user_id`: they must come in on `platform.events` (only the platform's user may write it),
 * or be our own copies of one that did; one of our services putting one straight into a queue is refused.
 */
export function publisherCheck(service: BrokerService, users: BrokerUsers): PublisherCheck {
  const own = users.of(service);
  const registry = users.of('connector-registry');
  return (message, routingKey) => {
    const headers = (message.properties.headers ??= {});
    const sender = typeof message.properties.userId === 'string' ? message.properties.userId : '';
    const stamped: unknown = headers[Header.PublishedBy];
    const replay = sender === registry && headers[Header.ReplayOf] !== undefined;
    const copy = sender === own || replay;
    if (isPlatformType(routingKey)) {
      // Only the platform may write platform.events; a copy of ours keeps where its original came in
      // (copies made before this was recorded carry nothing, and are ours all the same). A replay of an
      // original the broker dead-lettered carries its broker-validated user_id: fine if it is none of ours.
      const origin =
        message.fields.exchange === Exchange.PlatformEvents ||
        (copy && stamped === undefined) ||
        (replay && typeof stamped === 'string' && publisherRefusal(routingKey, stamped, users) === undefined)
          ? PLATFORM_ORIGIN
          : copy && typeof stamped === 'string'
            ? stamped
            : sender;
      headers[Header.PublishedBy] = origin;
      return origin === PLATFORM_ORIGIN
        ? undefined
        : `refused ${routingKey} from broker user "${origin}": only the platform may publish it, on ${Exchange.PlatformEvents}`;
    }
    if (!checkedPublishers(routingKey)) return undefined;
    const publisher = copy && typeof stamped === 'string' ? stamped : sender;
    headers[Header.PublishedBy] = publisher;
    return publisherRefusal(routingKey, publisher, users);
  };
}

/**
 * The headers whose word we act on: ours (Header: attempt, original routing key, reasons, retryable, failure
 * time, connector, publisher, replay) and the broker's dead-lettering record. A publisher can set any header.
 */
const CONTROL_HEADERS: readonly string[] = [
  ...Object.values(Header),
  'x-death',
  'x-first-death-queue',
  'x-first-death-reason',
  'x-first-death-exchange',
  'x-last-death-queue',
  'x-last-death-reason',
  'x-last-death-exchange',
];

/**
 * Drops the control headers from a message that is not one of our own copies, before anything reads or
 * copies them. Ours are what came back through the queue's own exchange (or, from a queue declared before
 * it had one, the default exchange, which no user may write) under a user that writes there: this service's
 * (retry and dead-letter copies, and what the broker dead-lettered of them) or the registry's, marked as a
 * replay. Everything else (the platform's events, other services' messages) gets no say in how it is handled.
 */
export function outsideHeaderFilter(
  service: BrokerService,
  users: BrokerUsers,
): (message: ConsumeMessage) => void {
  const own = users.of(service);
  const registry = users.of('connector-registry');
  const ownExchange = queueExchangeName(SERVICE_CONSUMES[service].queue);
  return (message) => {
    const headers = message.properties.headers;
    if (!headers) return;
    const sender = message.properties.userId;
    const throughOwn = message.fields.exchange === ownExchange || message.fields.exchange === '';
    const ours =
      throughOwn && (sender === own || (sender === registry && headers[Header.ReplayOf] !== undefined));
    if (ours) return;
    for (const name of CONTROL_HEADERS) delete headers[name];
  };
}

/**
 * What `x-published-by` records for a platform event that came in on platform.events: the platform need not
 * set `user_id`, but only its broker user may write that exchange.
 */
const PLATFORM_ORIGIN = Exchange.PlatformEvents;

function isPlatformType(routingKey: string): boolean {
  return (
    Object.hasOwn(MESSAGE_PUBLISHERS, routingKey) &&
    (MESSAGE_PUBLISHERS[routingKey as MessageType] as readonly BrokerPrincipal[]).includes('platform')
  );
}

/** The services that may publish a type whose publisher is checked; undefined for the platform's and unknown types. */
function checkedPublishers(routingKey: string): readonly BrokerService[] | undefined {
  // Own keys only: the routing key is the message's, and `constructor` or `__proto__` are no message types.
  const allowed = Object.hasOwn(MESSAGE_PUBLISHERS, routingKey)
    ? (MESSAGE_PUBLISHERS[routingKey as MessageType] as readonly BrokerPrincipal[])
    : undefined;
  return !allowed || allowed.includes('platform') ? undefined : (allowed as readonly BrokerService[]);
}

/**
 * Why `publisher` (a broker user, empty when the message had no `user_id`) may not publish `routingKey`, or
 * undefined: the consumers' check, and the failure log's again before a replay.
 */
export function publisherRefusal(
  routingKey: string,
  publisher: string | undefined,
  users: BrokerUsers,
): string | undefined {
  if (isPlatformType(routingKey)) {
    // Not known by name (the platform's user is not ours to configure): refused only when one of ours sent it.
    const ours = BROKER_SERVICES.find((service) => publisher && users.of(service) === publisher);
    return ours
      ? `refused ${routingKey} from broker user "${publisher}" (${ours}): only the platform may publish it`
      : undefined;
  }
  const allowed = checkedPublishers(routingKey);
  if (!allowed) return undefined;
  const expected = allowed.join(' or ');
  if (!publisher) return `refused ${routingKey} without user_id: only ${expected} may publish it`;
  if (allowed.some((allowedService) => users.of(allowedService) === publisher)) return undefined;
  return `refused ${routingKey} from broker user "${publisher}": only ${expected} may publish it`;
}

/**
 * Whose word a dead letter's headers are (its reasons, routing key, publisher): only the broker users that
 * write copies into `<queue>.dead`, its own service (dead-letter copies; retry copies the broker
 * dead-lettered) and the registry (replays the broker dead-lettered). Anyone else's dead letter is read
 * from what the broker vouches for: `user_id` and `x-death`.
 */
export function deadLetterWriters(users: BrokerUsers): (queue: string, userId: unknown) => boolean {
  return (queue, userId) => {
    const owner = BROKER_SERVICES.find((service) => SERVICE_CONSUMES[service].queue === queue);
    return (
      typeof userId === 'string' &&
      userId !== '' &&
      ((owner !== undefined && users.of(owner) === userId) || users.of('connector-registry') === userId)
    );
  };
}
