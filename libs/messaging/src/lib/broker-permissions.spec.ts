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

  it("lets each service consume only its own queue, the registry also draining everyone's dead letters", () => {
    for (const service of BROKER_SERVICES) {
      const own = permissions[service];
      for (const queue of Object.values(Queue)) {
        const mine = queue === SERVICE_CONSUMES[service].queue;
        expect([service, queue, allows(own.read, queue), allows(own.write, queue)]).toEqual([
          service,
          queue,
          mine,
          false, // the broker set-up binds it
        ]);
        expect([service, queue, allows(own.read, deadLetterQueueName(queue))]).toEqual([
          service,
          queue,
          service === 'connector-registry',
        ]);
      }
    }
  });

  it('lets our services declare nothing but server-named queues, no exchange at all', () => {
    for (const service of BROKER_SERVICES) {
      const { configure } = permissions[service];
      const { queue } = SERVICE_CONSUMES[service];
      for (const name of [
        queue,
        retryQueueName(queue, 5_000),
        deadLetterQueueName(queue),
        queueExchangeName(queue),
        replyQueueName(service),
        ...Object.values(Exchange),
      ]) {
        expect([service, name, allows(configure, name)]).toEqual([service, name, false]);
      }
      expect(allows(configure, 'amq.gen-JzTY20BRgKO-HjmUJj0wLg')).toBe(true);
    }
  });

  it('lets no service read an exchange it may write but the reply and broadcast ones, topic-limited', () => {
    const topics = brokerTopicPermissions();
    const exchanges = [...Object.values(Exchange), ...Object.values(Queue).map(queueExchangeName)];
    for (const service of BROKER_SERVICES) {
      const { read, write } = permissions[service];
      const readAndWritten = exchanges.filter((name) => allows(read, name) && allows(write, name));
      for (const exchange of readAndWritten) {
        // Topic permissions: nothing it may bind from there is a key it may publish there.
        const topic = topics[service].find((permission) => permission.exchange === exchange);
        expect([service, exchange, topic !== undefined]).toEqual([service, exchange, true]);
      }
      const runTime: string[] = [Exchange.Replies, Exchange.Internal];
      expect(readAndWritten.filter((name) => !runTime.includes(name))).toEqual([]);
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
        expect([service, queue, allows(configure, queueExchangeName(queue))]).toEqual([
          service,
          queue,
          false,
        ]);
      }
    }
  });

  it('lets the services that answer requests write replies, and those that ask bind from replies', () => {
    const replier = BROKER_SERVICES.filter((service) => allows(permissions[service].write, Exchange.Replies));
    expect(replier).toEqual(['connector-registry', 'auth-gateway', 'vacancy-sync']);
    expect(allows(permissions['vacancy-sync'].read, Exchange.Replies)).toBe(true);
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
    // auth-gateway's commands the broker set-up binds; it binds nothing itself.
    expect(on('auth-gateway', Exchange.Internal)).toBeUndefined();
  });

  it('lets no service bind from an exchange a key it may publish there', () => {
    for (const service of BROKER_SERVICES) {
      for (const { exchange, read, write } of topics[service]) {
        const keys = [...Object.keys(MESSAGE_PUBLISHERS), ...BROKER_SERVICES.map((s) => replyQueueName(s))];
        const both = keys.filter((key) => allows(read, key) && allows(write, key));
        expect([service, exchange, both]).toEqual([service, exchange, []]);
      }
    }
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

  it("declares every service's queues and all their bindings, with a test's retry delays when given", () => {
    const users = Object.fromEntries(
      [...BROKER_SERVICES, 'platform'].map((principal) => [
        principal,
        { user: principal, passwordHash: 'h' },
      ]),
    ) as Parameters<typeof brokerDefinitions>[1];
    const { queues, bindings } = brokerDefinitions('ats', users, {
      'candidate-sync': { retryDelaysMs: [300] },
    });
    const names = queues.map((queue) => queue.name);
    expect(names).toEqual(
      expect.arrayContaining([Queue.CandidateSync, retryQueueName(Queue.CandidateSync, 300)]),
    );
    expect(names).not.toContain(retryQueueName(Queue.DocumentService, 300));
    expect(names).toContain(retryQueueName(Queue.DocumentService, 5_000));
    expect(queues.find((queue) => queue.name === Queue.AuthGateway)?.arguments).toMatchObject({
      'x-queue-type': 'quorum',
      'x-dead-letter-exchange': queueExchangeName(Queue.AuthGateway),
    });
    expect(bindings).toContainEqual({
      source: Exchange.Internal,
      vhost: 'ats',
      destination: Queue.AuthGateway,
      destination_type: 'queue',
      routing_key: RoutingKey.AuthCredentialsSave,
      arguments: {},
    });
    expect(bindings).toContainEqual(
      expect.objectContaining({
        source: queueExchangeName(Queue.CandidateSync),
        destination: retryQueueName(Queue.CandidateSync, 300),
      }),
    );
  });
});

describe('SERVICE_CONSUMES', () => {
  it('binds each queue only to types its service takes, each on the exchange that type goes to', () => {
    for (const service of BROKER_SERVICES) {
      const { bindings, types } = SERVICE_CONSUMES[service];
      for (const { exchange, routingKeys } of bindings) {
        for (const key of routingKeys as MessageType[]) {
          expect([service, key, types.includes(key), MESSAGE_EXCHANGE[key]]).toEqual([
            service,
            key,
            true,
            exchange,
          ]);
        }
      }
    }
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
