import {
  Exchange,
  type ExchangeName,
  MESSAGE_EXCHANGE,
  type MessageType,
  Queue,
  type QueueName,
  REQUEST_TYPES,
  RoutingKey,
} from '@connector/contracts';
import { retryTiersOf } from './retry-policy';
import {
  consumerDeclarations,
  type ConsumerTopology,
  deadLetterQueueName,
  type QueueBinding,
  queueExchangeName,
  replyQueuePattern,
} from './topology';

/**
 * Who may do what on the broker, in one place: the broker users' permissions (`npm start`, the deployment
 * definitions, the tests) and the consumers' publisher checks are all derived from the tables below.
 */

/** Our five services; each has a broker user of its own. */
export const BROKER_SERVICES = [
  'connector-registry',
  'auth-gateway',
  'vacancy-sync',
  'candidate-sync',
  'document-service',
] as const;
export type BrokerService = (typeof BROKER_SERVICES)[number];

/** Everyone with a broker user: our services and the platform's microservices (one user for all of them). */
export type BrokerPrincipal = BrokerService | 'platform';
export const BROKER_PRINCIPALS: readonly BrokerPrincipal[] = [...BROKER_SERVICES, 'platform'];

/** The platform's own queues are named `platform.<anything>`: it may declare, bind and consume those. */
export const PLATFORM_QUEUE_PREFIX = 'platform.';

const WORKERS = ['vacancy-sync', 'candidate-sync', 'document-service'] as const;

/** Who may publish each message type. A consumer refuses a security-relevant type from anyone else. */
export const MESSAGE_PUBLISHERS = {
  [RoutingKey.CandidateCreated]: ['platform'],
  [RoutingKey.CandidateUpdated]: ['platform'],
  [RoutingKey.ApplicationSubmitted]: ['platform'],
  [RoutingKey.ApplicationUpdated]: ['platform'],
  [RoutingKey.DocumentUploaded]: ['platform'],
  [RoutingKey.CandidateErased]: ['platform'],
  [RoutingKey.VacancyUpserted]: ['vacancy-sync'],
  [RoutingKey.VacancyClosed]: ['vacancy-sync'],
  [RoutingKey.CandidateSynced]: ['candidate-sync'],
  [RoutingKey.ApplicationSynced]: ['candidate-sync'],
  [RoutingKey.DocumentSynced]: ['document-service'],
  [RoutingKey.RunCompleted]: ['vacancy-sync'],
  // Every consumer reports what it dead-letters.
  [RoutingKey.OperationFailed]: BROKER_SERVICES,
  [RoutingKey.OperationUnsupported]: ['candidate-sync'],
  // The registry (admin changes, deletion) and auth-gateway (authorization lost or back).
  [RoutingKey.ConnectorStatusChanged]: ['connector-registry', 'auth-gateway'],
  // The registry counts the parts of an erasure in and announces it.
  [RoutingKey.CandidateErasureCompleted]: ['connector-registry'],
  [RoutingKey.RunRequested]: ['connector-registry'],
  [RoutingKey.RunProgress]: ['vacancy-sync'],
  [RoutingKey.CredentialsRequested]: WORKERS,
  [RoutingKey.AuthConnectionTest]: ['connector-registry'],
  [RoutingKey.AuthCredentialsSave]: ['connector-registry'],
  [RoutingKey.AuthAuthorizationStart]: ['connector-registry'],
  [RoutingKey.AuthAuthorizationComplete]: ['connector-registry'],
  [RoutingKey.AuthCredentialsErase]: ['connector-registry'],
  [RoutingKey.VacancyPreviewRequested]: ['connector-registry'],
  [RoutingKey.VacancyEventFeedRequested]: ['connector-registry'],
  [RoutingKey.ConnectorLookup]: WORKERS,
  [RoutingKey.ConnectorsByAccount]: WORKERS,
  [RoutingKey.ConnectorChanged]: ['connector-registry'],
  [RoutingKey.ErasurePartCompleted]: ['candidate-sync', 'document-service'],
} as const satisfies Record<MessageType, readonly BrokerPrincipal[]>;

/**
 * Each service's queue, what the broker set-up binds it to, and the message types it takes: those its queue
 * binds and, for the workers, the `connector.changed` broadcasts. Every binding must be of a listed type
 * (`assertBindingsAllowed`).
 */
export const SERVICE_CONSUMES: Record<
  BrokerService,
  { queue: QueueName; bindings: QueueBinding[]; types: readonly MessageType[] }
> = {
  'connector-registry': {
    queue: Queue.ConnectorRegistry,
    bindings: [
      {
        exchange: Exchange.ConnectorEvents,
        routingKeys: [
          RoutingKey.RunCompleted,
          RoutingKey.ConnectorStatusChanged,
          // What the workers wrote to the ATSs: the activity view counts it per day.
          RoutingKey.CandidateSynced,
          RoutingKey.ApplicationSynced,
          RoutingKey.DocumentSynced,
        ],
        // Only recorded in the inbox, which is gone; failures reach the registry as dead letters.
        retiredRoutingKeys: [RoutingKey.OperationFailed, RoutingKey.OperationUnsupported],
      },
      {
        exchange: Exchange.Internal,
        routingKeys: [
          RoutingKey.RunProgress,
          // Requests from workers (request-reply): the registry answers them.
          RoutingKey.ConnectorLookup,
          RoutingKey.ConnectorsByAccount,
          RoutingKey.ErasurePartCompleted,
        ],
      },
      // The erasure of a candidate: the failure log's part, and the coordination of all parts.
      { exchange: Exchange.PlatformEvents, routingKeys: [RoutingKey.CandidateErased] },
    ],
    types: [
      RoutingKey.RunCompleted,
      RoutingKey.ConnectorStatusChanged,
      RoutingKey.OperationFailed,
      RoutingKey.OperationUnsupported,
      RoutingKey.RunProgress,
      RoutingKey.ConnectorLookup,
      RoutingKey.ConnectorsByAccount,
      // What the workers wrote to the ATSs: the admin page's activity per connector and day.
      RoutingKey.CandidateSynced,
      RoutingKey.ApplicationSynced,
      RoutingKey.DocumentSynced,
      RoutingKey.CandidateErased,
      RoutingKey.ErasurePartCompleted,
    ],
  },
  'auth-gateway': {
    queue: Queue.AuthGateway,
    bindings: [
      {
        exchange: Exchange.Internal,
        routingKeys: [
          RoutingKey.CredentialsRequested,
          RoutingKey.AuthConnectionTest,
          RoutingKey.AuthCredentialsSave,
          RoutingKey.AuthAuthorizationStart,
          RoutingKey.AuthAuthorizationComplete,
          RoutingKey.AuthCredentialsErase,
        ],
      },
      // A deleted connector's secrets go even if the registry's erase request was lost.
      { exchange: Exchange.ConnectorEvents, routingKeys: [RoutingKey.ConnectorStatusChanged] },
    ],
    types: [
      RoutingKey.CredentialsRequested,
      RoutingKey.AuthConnectionTest,
      RoutingKey.AuthCredentialsSave,
      RoutingKey.AuthAuthorizationStart,
      RoutingKey.AuthAuthorizationComplete,
      RoutingKey.AuthCredentialsErase,
      RoutingKey.ConnectorStatusChanged,
    ],
  },
  'vacancy-sync': {
    queue: Queue.VacancySync,
    bindings: [
      {
        exchange: Exchange.Internal,
        routingKeys: [
          RoutingKey.RunRequested,
          RoutingKey.VacancyPreviewRequested,
          RoutingKey.VacancyEventFeedRequested,
          // Options a schedule is kept by take effect at once (one process per change; see runs/).
          RoutingKey.ConnectorChanged,
        ],
      },
      // A connector joins the schedule when it becomes usable and leaves it when it stops being so.
      { exchange: Exchange.ConnectorEvents, routingKeys: [RoutingKey.ConnectorStatusChanged] },
    ],
    types: [
      RoutingKey.RunRequested,
      RoutingKey.VacancyPreviewRequested,
      RoutingKey.VacancyEventFeedRequested,
      RoutingKey.ConnectorStatusChanged,
      RoutingKey.ConnectorChanged,
    ],
  },
  'candidate-sync': {
    queue: Queue.CandidateSync,
    bindings: [
      {
        exchange: Exchange.PlatformEvents,
        routingKeys: [
          RoutingKey.CandidateCreated,
          RoutingKey.CandidateUpdated,
          RoutingKey.ApplicationSubmitted,
          RoutingKey.ApplicationUpdated,
          RoutingKey.CandidateErased,
        ],
      },
      // A deleted connector's links go after the retention period.
      { exchange: Exchange.ConnectorEvents, routingKeys: [RoutingKey.ConnectorStatusChanged] },
    ],
    types: [
      RoutingKey.CandidateCreated,
      RoutingKey.CandidateUpdated,
      RoutingKey.ApplicationSubmitted,
      RoutingKey.ApplicationUpdated,
      RoutingKey.CandidateErased,
      RoutingKey.ConnectorStatusChanged,
      RoutingKey.ConnectorChanged,
    ],
  },
  'document-service': {
    queue: Queue.DocumentService,
    bindings: [
      {
        exchange: Exchange.PlatformEvents,
        routingKeys: [RoutingKey.DocumentUploaded, RoutingKey.CandidateErased],
      },
      // Where candidates live in each ATS, as candidate-sync announces it, and which connectors were
      // deleted (their links go after the retention period).
      {
        exchange: Exchange.ConnectorEvents,
        routingKeys: [RoutingKey.CandidateSynced, RoutingKey.ConnectorStatusChanged],
      },
    ],
    types: [
      RoutingKey.DocumentUploaded,
      RoutingKey.CandidateErased,
      RoutingKey.CandidateSynced,
      RoutingKey.ConnectorStatusChanged,
      RoutingKey.ConnectorChanged,
    ],
  },
};

/** RabbitMQ's three permission regexes of one user in one vhost. */
export interface BrokerPermission {
  configure: string;
  write: string;
  read: string;
}

/** Server-named queues (reply and broadcast queues): `amq.` names no client may declare an exchange of. */
const SERVER_NAMED = 'amq\\.gen-.*';

/**
 * Types every process of a consumer gets through a server-named queue of its own (BroadcastListener), bound
 * at run time; everything else the broker set-up binds to the service's queue.
 */
const BROADCASTS: readonly MessageType[] = [RoutingKey.ConnectorChanged];

/**
 * No service can route a message around the topic permissions: it may declare nothing but server-named
 * queues, and it may read (bind from) no exchange it can route into with a routing key of its choosing.
 * The broker set-up declares every service's queues, their own exchanges (`<queue>.dlx`) and all their
 * bindings (`brokerTopology`); a service writes only the exchanges of what it publishes, its own exchange
 * (retry and dead-letter copies) and, answering requests, `connector.replies`; it reads its own queue, its
 * server-named queues and only the exchanges it binds those to at run time: `connector.replies` (its replies)
 * and `connector.internal` (broadcasts), each limited by topic permissions to keys it may not publish there
 * itself, so an exchange-to-exchange binding from them gains nothing (docs/security.md, "On the broker").
 * None may write the default exchange, which reaches every queue by name. The registry also drains every
 * service's dead-letter queue (the failure log) and replays into every queue's own exchange. The platform
 * may declare, bind and consume only `platform.*` and server-named queues, publish only to
 * `platform.events`, and read only `connector.events`: no internal command, reply, retry or dead-letter
 * queue is within its reach, and it may write no exchange of ours.
 */
export function brokerPermissions(): Record<BrokerPrincipal, BrokerPermission> {
  const queues = Object.values(Queue);
  const allDeadLetterQueues = queues.map((queue) => literal(deadLetterQueueName(queue)));
  const allQueueExchanges = queues.map((queue) => literal(queueExchangeName(queue)));
  const permissions = {} as Record<BrokerPrincipal, BrokerPermission>;
  for (const service of BROKER_SERVICES) {
    const { queue } = SERVICE_CONSUMES[service];
    const registry = service === 'connector-registry';
    permissions[service] = {
      configure: anyOf([SERVER_NAMED]),
      write: anyOf([
        SERVER_NAMED,
        ...publishedExchanges(service).map(literal),
        literal(queueExchangeName(queue)),
        ...(answeredBy(service).length > 0 ? [literal(Exchange.Replies)] : []),
        ...(registry ? allQueueExchanges : []),
      ]),
      read: anyOf([
        literal(queue),
        SERVER_NAMED,
        ...(requestsOf(service).length > 0 ? [literal(Exchange.Replies)] : []),
        ...exchangesOf(broadcastsOf(service)).map(literal),
        ...(registry ? allDeadLetterQueues : []),
      ]),
    };
  }
  // `platform.*` but not the exchange platform.events itself, which the platform may write and bind from but
  // never declare with other arguments or delete.
  const platformOwn = `${literal(PLATFORM_QUEUE_PREFIX)}(?!events$).+`;
  const platformEvents = literal(Exchange.PlatformEvents);
  permissions.platform = {
    configure: anyOf([platformOwn, SERVER_NAMED]),
    write: anyOf([platformOwn, SERVER_NAMED, platformEvents]),
    read: anyOf([platformOwn, SERVER_NAMED, platformEvents, literal(Exchange.ConnectorEvents)]),
  };
  return permissions;
}

/** RabbitMQ's topic permission: which routing keys a user may publish to, and bind from, one topic exchange. */
export interface BrokerTopicPermission {
  exchange: ExchangeName;
  write: string;
  read: string;
}

/**
 * Within an exchange, our services may publish only the message types they are listed for in
 * MESSAGE_PUBLISHERS, so that no service can send another's events; and bind only what they bind at run
 * time (broadcasts, their own reply addresses), never a type they may publish there. The platform has none:
 * it may bind anything on `connector.events` and publish anything on its own `platform.events`.
 */
export function brokerTopicPermissions(): Record<BrokerService, BrokerTopicPermission[]> {
  const permissions = {} as Record<BrokerService, BrokerTopicPermission[]>;
  for (const service of BROKER_SERVICES) {
    const published = publishedTypes(service);
    const broadcasts = broadcastsOf(service);
    permissions[service] = exchangesOf([...published, ...broadcasts]).map((exchange) => ({
      exchange,
      write: keysOn(exchange, published),
      read: keysOn(exchange, broadcasts),
    }));
    // Replies: written only to the addresses of those whose requests it answers, bound only to its own.
    const requesters = answeredBy(service).flatMap((type) => servicesPublishing(type));
    const asks = requestsOf(service).length > 0;
    if (requesters.length > 0 || asks) {
      permissions[service].push({
        exchange: Exchange.Replies,
        write: requesters.length > 0 ? anyOf(requesters.sort().map(replyQueuePattern)) : '^$',
        read: asks ? anyOf([replyQueuePattern(service)]) : '^$',
      });
    }
  }
  return permissions;
}

/** The broadcast types a service listens to (each process binds a server-named queue of its own). */
function broadcastsOf(service: BrokerService): MessageType[] {
  return SERVICE_CONSUMES[service].types.filter((type) => BROADCASTS.includes(type));
}

/** The request types a service asks (publishes). */
function requestsOf(service: BrokerService): MessageType[] {
  return publishedTypes(service).filter((type) => REQUEST_TYPES.has(type));
}

/** The request types a service answers (consumes). */
function answeredBy(service: BrokerService): MessageType[] {
  return SERVICE_CONSUMES[service].types.filter((type) => REQUEST_TYPES.has(type));
}

function servicesPublishing(type: MessageType): BrokerService[] {
  return (MESSAGE_PUBLISHERS[type] as readonly BrokerPrincipal[]).filter(
    (principal): principal is BrokerService => principal !== 'platform',
  );
}

function keysOn(exchange: ExchangeName, types: readonly MessageType[]): string {
  const keys = types.filter((type) => MESSAGE_EXCHANGE[type] === exchange);
  return keys.length > 0 ? anyOf(keys.map(literal)) : '^$';
}

function publishedTypes(principal: BrokerPrincipal): MessageType[] {
  return (Object.keys(MESSAGE_PUBLISHERS) as MessageType[]).filter((type) =>
    (MESSAGE_PUBLISHERS[type] as readonly BrokerPrincipal[]).includes(principal),
  );
}

/** The exchanges a principal publishes to, from MESSAGE_PUBLISHERS. */
function publishedExchanges(principal: BrokerPrincipal): ExchangeName[] {
  return exchangesOf(publishedTypes(principal));
}

function exchangesOf(types: readonly MessageType[]): ExchangeName[] {
  return [...new Set(types.map((type) => MESSAGE_EXCHANGE[type]))].sort();
}

function literal(name: string): string {
  return name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function anyOf(patterns: string[]): string {
  return `^(${[...new Set(patterns)].join('|')})$`;
}

/**
 * What a deployment sets per service that shapes its queues (its config's RETRY_DELAYS_MS and DELIVERY_LIMIT):
 * the broker set-up declares the queues with the same, the production ladder and limit by default.
 */
export type TopologySettings = Partial<
  Record<BrokerService, { retryDelaysMs?: readonly number[]; deliveryLimit?: number }>
>;

/** Every service's queue topology, as the broker set-up declares it. */
export function serviceTopologies(settings: TopologySettings = {}): ConsumerTopology[] {
  return BROKER_SERVICES.map((service) => ({
    queue: SERVICE_CONSUMES[service].queue,
    bindings: SERVICE_CONSUMES[service].bindings,
    retryDelaysMs: retryTiersOf({ retryDelaysMs: settings[service]?.retryDelaysMs }),
    deliveryLimit: settings[service]?.deliveryLimit,
  }));
}

/** What RabbitMQ imports (`rabbitmqctl import_definitions`, the management API, `load_definitions`). */
export interface BrokerDefinitions {
  users: Array<{ name: string; password_hash: string; hashing_algorithm: string; tags: string[] }>;
  vhosts: Array<{ name: string }>;
  permissions: Array<{ user: string; vhost: string } & BrokerPermission>;
  topic_permissions: Array<{ user: string; vhost: string } & BrokerTopicPermission>;
  exchanges: Array<{
    name: string;
    vhost: string;
    type: 'topic' | 'direct';
    durable: true;
    auto_delete: false;
    internal: false;
    arguments: Record<string, never>;
  }>;
  queues: Array<{
    name: string;
    vhost: string;
    durable: true;
    auto_delete: false;
    arguments: Record<string, unknown>;
  }>;
  bindings: Array<{
    source: string;
    vhost: string;
    destination: string;
    destination_type: 'queue';
    routing_key: string;
    arguments: Record<string, never>;
  }>;
}

/** A broker user of one principal, with its password hash (RabbitMQ's salted SHA-256) or a placeholder. */
export interface BrokerUserDefinition {
  user: string;
  passwordHash: string;
}

/**
 * The users, the vhost, the permissions (topic ones too), the exchanges and every service's queues with
 * their bindings, as a definitions document.
 */
export function brokerDefinitions(
  vhost: string,
  users: Record<BrokerPrincipal, BrokerUserDefinition>,
  settings: TopologySettings = {},
): BrokerDefinitions {
  const permissions = brokerPermissions();
  const topicPermissions = brokerTopicPermissions();
  const declarations = serviceTopologies(settings).map(consumerDeclarations);
  return {
    users: BROKER_PRINCIPALS.map((principal) => ({
      name: users[principal].user,
      password_hash: users[principal].passwordHash,
      hashing_algorithm: 'rabbit_password_hashing_sha256',
      tags: [],
    })),
    vhosts: [{ name: vhost }],
    permissions: BROKER_PRINCIPALS.map((principal) => ({
      user: users[principal].user,
      vhost,
      ...permissions[principal],
    })),
    topic_permissions: BROKER_SERVICES.flatMap((service) =>
      topicPermissions[service].map((permission) => ({ user: users[service].user, vhost, ...permission })),
    ),
    // The shared exchanges, and each queue's own.
    exchanges: [
      ...Object.values(Exchange).map((name) => ({ name, type: 'topic' as const })),
      ...Object.values(Queue).map((queue) => ({ name: queueExchangeName(queue), type: 'direct' as const })),
    ].map(({ name, type }) => ({
      name,
      vhost,
      type,
      durable: true,
      auto_delete: false,
      internal: false,
      arguments: {},
    })),
    queues: declarations.flatMap(({ queues }) =>
      queues.map((queue) => ({ ...queue, vhost, durable: true as const, auto_delete: false as const })),
    ),
    bindings: declarations.flatMap(({ bindings }) =>
      bindings.map(({ exchange, queue, routingKey }) => ({
        source: exchange,
        vhost,
        destination: queue,
        destination_type: 'queue' as const,
        routing_key: routingKey,
        arguments: {},
      })),
    ),
  };
}
