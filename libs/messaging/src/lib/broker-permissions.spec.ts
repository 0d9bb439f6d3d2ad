import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Exchange, MESSAGE_EXCHANGE, type MessageType, Queue, RoutingKey } from '@connector/contracts';
import {
  BROKER_SERVICES,
  brokerDefinitions,
  brokerPermissions,
  brokerTopicPermissions,
  MESSAGE_PUBLISHERS,
  PLATFORM_QUEUE_PREFIX,
  SERVICE_CONSUMES,
} from './broker-permissions';
import { deadLetterQueueName, queueExchangeName, replyQueueName, retryQueueName } from './topology';

/** RabbitMQ matches these regexes against names the same way JavaScript does (anchored, no flags). */
const allows = (pattern: string, name: string) => new RegExp(pattern).test(name);

describe(brokerPermissions.name, () => {
  const permissions = brokerPermissions();

  it('lets the platform write only platform.events and its own queues, read only connector.events besides', () => {
    const { platform } = permissions;
    expect(allows(platform.write, Exchange.PlatformEvents)).toBe(true);
    expect(allows(platform.write, `${PLATFORM_QUEUE_PREFIX}vacancies`)).toBe(true);
    for (const name of [Exchange.ConnectorEvents, Exchange.Internal, 'amq.default', Queue.AuthGateway]) {
      expect([name, allows(platform.write, name)]).toEqual([name, false]);
    }
    expect(allows(platform.read, Exchange.ConnectorEvents)).toBe(true);
    for (const name of [
      Exchange.Internal,
      Queue.AuthGateway,
      retryQueueName(Queue.CandidateSync, 5_000),
      deadLetterQueueName(Queue.ConnectorRegistry),
    ]) {
      expect([name, allows(platform.read, name), allows(platform.configure, name)]).toEqual([
        name,
        false,
        false,
      ]);
    }
    expect(allows(platform.configure, Exchange.ConnectorEvents)).toBe(false);
    // Its own exchange it writes and binds from, but may not delete or redeclare.
    expect(allows(platform.configure, Exchange.PlatformEvents)).toBe(false);
    expect(allows(platform.configure, `${PLATFORM_QUEUE_PREFIX}events-archive`)).toBe(true);
    expect(allows(platform.read, Exchange.PlatformEvents)).toBe(true);
  });

  it("keeps each service to its own queues, the registry also draining everyone's dead letters", () => {
    for (const service of BROKER_SERVICES) {
      const own = permissions[service];
      for (const queue of Object.values(Queue)) {
        const mine = queue === SERVICE_CONSUMES[service].queue;
        const collects = mine || service === 'connector-registry';
        expect([service, queue, allows(own.read, queue), allows(own.write, queue)]).toEqual([
          service,
          queue,
          mine,
          mine,
        ]);
        expect([service, queue, allows(own.configure, retryQueueName(queue, 300))]).toEqual([
          service,
          queue,
          mine,
        ]);
        expect([service, queue, allows(own.read, deadLetterQueueName(queue))]).toEqual([
          service,
          queue,
          collects,
        ]);
      }
    }
  });

  it('gives write on an exchange only to services that publish something on it', () => {
    expect(allows(permissions['auth-gateway'].write, Exchange.Internal)).toBe(false);
    expect(allows(permissions['auth-gateway'].write, Exchange.ConnectorEvents)).toBe(true);
    for (const service of BROKER_SERVICES) {
      expect(allows(permissions[service].write, Exchange.PlatformEvents)).toBe(false);
    }
  });

  it('lets no service write the default exchange; each its own queue exchange, the registry every one', () => {
    for (const service of BROKER_SERVICES) {
      const { write, configure } = permissions[service];
      // Retries, dead letters and replies go through exchanges of their own: '' reaches every queue.
      expect([service, allows(write, 'amq.default'), allows(write, '')]).toEqual([service, false, false]);
      for (const queue of Object.values(Queue)) {
        const mine = queue === SERVICE_CONSUMES[service].queue;
        expect([service, queue, allows(write, queueExchangeName(queue))]).toEqual([
          service,
          queue,
          mine || service === 'connector-registry', // the registry's replays
        ]);
        expect([service, queue, allows(configure, queueExchangeName(queue))]).toEqual([service, queue, mine]);
      }
    }
  });

  it('lets the services that answer requests write replies, and those that ask bind their own reply queues', () => {
    const replier = BROKER_SERVICES.filter((service) => allows(permissions[service].write, Exchange.Replies));
    expect(replier).toEqual(['connector-registry', 'auth-gateway', 'vacancy-sync']);
    const mine = replyQueueName('vacancy-sync');
    expect(allows(permissions['vacancy-sync'].configure, mine)).toBe(true);
    expect(allows(permissions['candidate-sync'].configure, mine)).toBe(false);
    expect(allows(permissions['auth-gateway'].read, Exchange.Replies)).toBe(false); // never asks
  });

  it('lets no one configure (declare or delete) the shared exchanges, which the broker set-up creates', () => {
    for (const principal of [...BROKER_SERVICES, 'platform'] as const) {
      for (const exchange of Object.values(Exchange)) {
        expect([principal, exchange, allows(permissions[principal].configure, exchange)]).toEqual([
          principal,
          exchange,
          false,
        ]);
      }
    }
  });
});

describe(brokerTopicPermissions.name, () => {
  const topics = brokerTopicPermissions();
  const on = (service: (typeof BROKER_SERVICES)[number], exchange: string) =>
    topics[service].find((permission) => permission.exchange === exchange);

  it('lets only the registry and auth-gateway publish connector.status_changed', () => {
    const publishers = BROKER_SERVICES.filter((service) =>
      allows(on(service, Exchange.ConnectorEvents)?.write ?? '^$', RoutingKey.ConnectorStatusChanged),
    );
    expect(publishers).toEqual(['connector-registry', 'auth-gateway']);
    expect(allows(on('vacancy-sync', Exchange.ConnectorEvents)!.write, RoutingKey.VacancyUpserted)).toBe(
      true,
    );
  });

  it('lets a worker listen on connector.internal to connector.changed only, not to secrets in commands', () => {
    const candidates = on('candidate-sync', Exchange.Internal)!;
    expect(allows(candidates.read, RoutingKey.ConnectorChanged)).toBe(true);
    for (const key of [RoutingKey.AuthCredentialsSave, '#', 'auth.*']) {
      expect([key, allows(candidates.read, key)]).toEqual([key, false]);
    }
    expect(allows(on('auth-gateway', Exchange.Internal)!.read, RoutingKey.AuthCredentialsSave)).toBe(true);
  });

  it('writes a reply only into the reply queues of those it answers, and binds none but its own', () => {
    const registryReplies = replyQueueName('connector-registry');
    const workerReplies = replyQueueName('candidate-sync');
    const gateway = on('auth-gateway', Exchange.Replies)!;
    expect([allows(gateway.write, registryReplies), allows(gateway.write, workerReplies)]).toEqual([
      true,
      true,
    ]);
    expect(allows(gateway.write, Queue.CandidateSync)).toBe(false);
    expect(allows(gateway.read, '#')).toBe(false);
    // vacancy-sync answers previews (the registry's) only.
    const vacancies = on('vacancy-sync', Exchange.Replies)!;
    expect([allows(vacancies.write, registryReplies), allows(vacancies.write, workerReplies)]).toEqual([
      true,
      false,
    ]);
    const candidates = on('candidate-sync', Exchange.Replies)!;
    expect(allows(candidates.write, registryReplies)).toBe(false);
    expect(allows(candidates.read, workerReplies)).toBe(true);
    for (const key of [registryReplies, replyQueueName('document-service'), '#', 'candidate-sync.reply.*']) {
      expect([key, allows(candidates.read, key)]).toEqual([key, false]);
    }
  });
});

describe(brokerDefinitions.name, () => {
  it('puts users, the vhost, permissions and the exchanges in one document', () => {
    const users = {
      'connector-registry': { user: 'cr', passwordHash: 'h1' },
      'auth-gateway': { user: 'ag', passwordHash: 'h2' },
      'vacancy-sync': { user: 'vs', passwordHash: 'h3' },
      'candidate-sync': { user: 'cs', passwordHash: 'h4' },
      'document-service': { user: 'ds', passwordHash: 'h5' },
      platform: { user: 'pf', passwordHash: 'h6' },
    };
    const definitions = brokerDefinitions('ats', users);
    expect(definitions.users.map((user) => user.name)).toEqual(['cr', 'ag', 'vs', 'cs', 'ds', 'pf']);
    expect(definitions.users.every((user) => user.tags.length === 0)).toBe(true);
    expect(definitions.vhosts).toEqual([{ name: 'ats' }]);
    expect(definitions.permissions.find((p) => p.user === 'pf')).toEqual({
      user: 'pf',
      vhost: 'ats',
      ...brokerPermissions().platform,
    });
    expect(definitions.topic_permissions.some((p) => p.user === 'pf')).toBe(false);
    expect(definitions.exchanges.map((e) => [e.name, e.type, e.durable])).toEqual([
      ...Object.values(Exchange).map((name) => [name, 'topic', true]),
      ...Object.values(Queue).map((queue) => [queueExchangeName(queue), 'direct', true]),
    ]);
  });
});

describe('docs/contract.md', () => {
  it('lists, for every message type, the user_id that may publish it, as MESSAGE_PUBLISHERS says', () => {
    const rows = (Object.keys(MESSAGE_PUBLISHERS) as MessageType[]).map((type) => {
      const publishers = (MESSAGE_PUBLISHERS[type] as readonly string[]).map((user) => `\`${user}\``);
      return `| \`${type}\` | \`${MESSAGE_EXCHANGE[type]}\` | ${publishers.join(', ')} |`;
    });
    const doc = readFileSync(join(__dirname, '../../../../docs/contract.md'), 'utf8');
    const table = /<!-- publishers:start -->\n([\s\S]*?)<!-- publishers:end -->/.exec(doc)?.[1] ?? '';
    const listed = table
      .split('\n')
      .filter((line) => line.startsWith('| `'))
      .map((line) => line.replace(/ +\|/g, ' |').replace(/\| +/g, '| '));
    expect(listed).toEqual(rows);
  });
});
