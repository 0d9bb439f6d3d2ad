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
import { deadLetterQueueName, queueExchangeName, replyQueuePattern } from './topology';

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
 * Each service's queue and the message types it takes: those its queue binds and, for the workers, the
 * `connector.changed` broadcasts. A service refuses at boot to bind anything not listed here.
 */
export const SERVICE_CONSUMES: Record<BrokerService, { queue: QueueName; types: readonly MessageType[] }> = {
  'connector-registry': {
    queue: Queue.ConnectorRegistry,
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

/** Server-named queues (the per-process broadcast queues). */
const SERVER_NAMED = 'amq\\.gen-.*';

/**
 * Our services may declare their own queue with its retry and dead-letter queues and its own exchange
 * (`<queue>.dlx`, which routes into those by name), their own reply queues and server-named queues; never the
 * shared exchanges, which the broker set-up creates and they only check (so none can delete or re-declare
 * them). They write only to the exchanges of what they publish, to their own exchange, and (answering
 * requests) to `connector.replies`; read only their own queues and the exchanges of what they consume. None
 * may write the default exchange, which reaches every queue by name. The registry also drains every
 * service's dead-letter queue (the failure log) and replays into every queue's own exchange. The platform
 * may declare, bind and consume only `platform.*` and server-named queues, publish only to
 * `platform.events`, and read only `connector.events`: no internal command, reply, retry or dead-letter
 * queue is within its reach.
 */
export function brokerPermissions(): Record<BrokerPrincipal, BrokerPermission> {
  const queues = Object.values(Queue);
  const allDeadLetterQueues = queues.map((queue) => literal(deadLetterQueueName(queue)));
  const allQueueExchanges = queues.map((queue) => literal(queueExchangeName(queue)));
  const permissions = {} as Record<BrokerPrincipal, BrokerPermission>;
  for (const service of BROKER_SERVICES) {
    const { queue, types } = SERVICE_CONSUMES[service];
    const own = `${literal(queue)}(\\.retry\\.\\d+ms|\\.dead|\\.dlx)?`;
    const registry = service === 'connector-registry';
    const collector = registry ? allDeadLetterQueues : [];
    const replies = requestsOf(service).length > 0 ? [replyQueuePattern(service)] : [];
    const answers = answeredBy(service).length > 0 ? [literal(Exchange.Replies)] : [];
    permissions[service] = {
      // Not the shared exchanges: the broker set-up creates them, services only check them (passively).
      configure: anyOf([own, ...replies, SERVER_NAMED, ...collector]),
      write: anyOf([
        own,
        ...replies,
        SERVER_NAMED,
        ...publishedExchanges(service).map(literal),
        ...answers,
        ...(registry ? allQueueExchanges : []),
      ]),
      read: anyOf([
        own,
        ...replies,
        SERVER_NAMED,
        ...exchangesOf(types).map(literal),
        ...(replies.length > 0 ? [literal(Exchange.Replies)] : []),
        ...collector,
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
 * MESSAGE_PUBLISHERS and bind only those they consume, so that no service can send another's events or
 * listen to commands not meant for it (`auth.credentials.save` carries a customer's secret). The platform
 * has none: it may bind anything on `connector.events` and publish anything on its own `platform.events`.
 */
export function brokerTopicPermissions(): Record<BrokerService, BrokerTopicPermission[]> {
  const permissions = {} as Record<BrokerService, BrokerTopicPermission[]>;
  for (const service of BROKER_SERVICES) {
    const published = publishedTypes(service);
    const consumed = SERVICE_CONSUMES[service].types;
    permissions[service] = exchangesOf([...published, ...consumed]).map((exchange) => ({
      exchange,
      write: keysOn(exchange, published),
      read: keysOn(exchange, consumed),
    }));
    // Replies: written only into the reply queues of those whose requests it answers, bound only to its own.
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
}

/** A broker user of one principal, with its password hash (RabbitMQ's salted SHA-256) or a placeholder. */
export interface BrokerUserDefinition {
  user: string;
  passwordHash: string;
}

/** The users, the vhost, the permissions (topic ones too) and the exchanges, as a definitions document. */
export function brokerDefinitions(
  vhost: string,
  users: Record<BrokerPrincipal, BrokerUserDefinition>,
): BrokerDefinitions {
  const permissions = brokerPermissions();
  const topicPermissions = brokerTopicPermissions();
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
    // The shared exchanges, and each queue's own (its service declares it too; here it exists for replays
    // before that service first starts).
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
  };
}
