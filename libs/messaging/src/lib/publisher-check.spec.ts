import type { ConsumeMessage } from 'amqplib';
import { Exchange, Header, Queue, RoutingKey } from '@connector/contracts';
import {
  BrokerUsers,
  BrokerUsersFormatError,
  deadLetterWriters,
  outsideHeaderFilter,
  parseBrokerUsers,
  publisherCheck,
  publisherRefusal,
} from './publisher-check';

const PER_SERVICE =
  'connector-registry:cr,auth-gateway:ag,vacancy-sync:vs,candidate-sync:cs,document-service:ds';

function message(userId: string | undefined, headers?: Record<string, unknown>): ConsumeMessage {
  return {
    content: Buffer.from('{}'),
    fields: { routingKey: 'x', exchange: Exchange.ConnectorEvents },
    properties: { userId, headers },
  } as unknown as ConsumeMessage;
}

describe(parseBrokerUsers.name, () => {
  it('reads <service>:<user> for every service, * for all of them', () => {
    expect(parseBrokerUsers(PER_SERVICE)?.['auth-gateway']).toBe('ag');
    expect(parseBrokerUsers('*:guest,auth-gateway:ag')).toEqual({
      'connector-registry': 'guest',
      'auth-gateway': 'ag',
      'vacancy-sync': 'guest',
      'candidate-sync': 'guest',
      'document-service': 'guest',
    });
    expect(parseBrokerUsers(' ')).toBeUndefined();
  });

  it('refuses unknown services, missing users and services left out', () => {
    expect(() => parseBrokerUsers('*:guest,registry:x')).toThrow(BrokerUsersFormatError);
    expect(() => parseBrokerUsers('*:guest,auth-gateway:')).toThrow(/not <service>:<user>/);
    expect(() => parseBrokerUsers('auth-gateway:ag')).toThrow(/no user for connector-registry, vacancy-sync/);
  });

  it('without a setting, every service is the given user (local mode) and they are all shared', () => {
    const users = BrokerUsers.parse('', 'guest');
    expect(users.of('candidate-sync')).toBe('guest');
    expect(users.shared()).toHaveLength(5);
    expect(BrokerUsers.parse(PER_SERVICE, 'guest').shared()).toEqual([]);
  });
});

describe(publisherCheck.name, () => {
  const users = BrokerUsers.parse(PER_SERVICE, 'unused');
  const registry = publisherCheck('connector-registry', users);
  const documents = publisherCheck('document-service', users);

  it('accepts a status change from the registry or auth-gateway, and records who sent it', () => {
    const fromGateway = message('ag');
    expect(registry(fromGateway, RoutingKey.ConnectorStatusChanged)).toBeUndefined();
    expect(fromGateway.properties.headers?.[Header.PublishedBy]).toBe('ag');
    expect(registry(message('cr'), RoutingKey.ConnectorStatusChanged)).toBeUndefined();
  });

  it('refuses it from any other service, and without user_id, saying why', () => {
    const forged = message('vs');
    expect(registry(forged, RoutingKey.ConnectorStatusChanged)).toBe(
      'refused connector.status_changed from broker user "vs": only connector-registry or auth-gateway may publish it',
    );
    expect(forged.properties.headers?.[Header.PublishedBy]).toBe('vs');
    expect(registry(message(undefined), RoutingKey.ConnectorStatusChanged)).toMatch(
      /refused connector.status_changed without user_id/,
    );
    expect(documents(message('vs'), RoutingKey.CandidateSynced)).toMatch(/only candidate-sync may publish/);
    expect(documents(message('cs'), RoutingKey.CandidateSynced)).toBeUndefined();
  });

  it('leaves keys that are no message type to validation, even those Object.prototype has', () => {
    for (const key of ['constructor', 'toString', '__proto__', 'hasOwnProperty', 'no.such.type']) {
      expect(documents(message('vs'), key)).toBeUndefined();
    }
  });

  it('believes x-published-by only on its own retry copies and on replays by the registry', () => {
    // A retry: published again by document-service itself, the original publisher in the header.
    expect(
      documents(message('ds', { [Header.PublishedBy]: 'cs' }), RoutingKey.CandidateSynced),
    ).toBeUndefined();
    expect(documents(message('ds', { [Header.PublishedBy]: 'vs' }), RoutingKey.CandidateSynced)).toMatch(
      /from broker user "vs"/,
    );
    // A replay from the failure log keeps the original publisher, for better or worse.
    const replay = (publishedBy: string) =>
      message('cr', { [Header.ReplayOf]: 'failure-1', [Header.PublishedBy]: publishedBy });
    expect(documents(replay('cs'), RoutingKey.CandidateSynced)).toBeUndefined();
    expect(documents(replay(''), RoutingKey.CandidateSynced)).toMatch(/without user_id/);
    // Anyone else naming a publisher in the header is judged by its own user.
    const claimed = message('vs', { [Header.PublishedBy]: 'cs', [Header.ReplayOf]: 'failure-1' });
    expect(documents(claimed, RoutingKey.CandidateSynced)).toMatch(/from broker user "vs"/);
    expect(claimed.properties.headers?.[Header.PublishedBy]).toBe('vs');
  });

  it('refuses internal commands from services that may not send them', () => {
    const gateway = publisherCheck('auth-gateway', users);
    expect(gateway(message('vs'), RoutingKey.CredentialsRequested)).toBeUndefined();
    expect(gateway(message('cr'), RoutingKey.CredentialsRequested)).toMatch(
      /only vacancy-sync or candidate-sync/,
    );
    expect(gateway(message('cs'), RoutingKey.AuthCredentialsErase)).toMatch(/only connector-registry/);
  });

  it("takes the platform's events only as they came in on platform.events (no user_id needed), or as our copies", () => {
    const candidates = publisherCheck('candidate-sync', users);
    const arrived = (userId: string | undefined, exchange: string, headers: Record<string, unknown> = {}) =>
      ({ ...message(userId, headers), fields: { routingKey: 'x', exchange } }) as ConsumeMessage;
    const fromPlatform = arrived(undefined, Exchange.PlatformEvents);
    expect(candidates(fromPlatform, RoutingKey.CandidateCreated)).toBeUndefined();
    expect(fromPlatform.properties.headers?.[Header.PublishedBy]).toBe(Exchange.PlatformEvents);
    // Our retry copy of it, and the registry's replay, keep where it came in; one made before that, too.
    const stamped = { [Header.PublishedBy]: Exchange.PlatformEvents };
    expect(candidates(arrived('cs', '', stamped), RoutingKey.CandidateCreated)).toBeUndefined();
    expect(candidates(arrived('cs', ''), RoutingKey.CandidateCreated)).toBeUndefined();
    const replay = { ...stamped, [Header.ReplayOf]: 'f1' };
    expect(candidates(arrived('cr', '', replay), RoutingKey.CandidateCreated)).toBeUndefined();
    // Another service putting one straight into the queue, or claiming the platform in a header: refused.
    expect(candidates(arrived('vs', ''), RoutingKey.CandidateCreated)).toBe(
      'refused candidate.created from broker user "vs": only the platform may publish it, on platform.events',
    );
    expect(candidates(arrived('vs', '', stamped), RoutingKey.CandidateCreated)).toMatch(/"vs"/);
    expect(
      candidates(
        arrived('cr', '', { [Header.PublishedBy]: 'vs', [Header.ReplayOf]: 'f1' }),
        RoutingKey.CandidateCreated,
      ),
    ).toMatch(/"vs"/);
  });

  it('replays a platform event the broker dead-lettered, recorded under its user_id, unless that is ours', () => {
    const candidates = publisherCheck('candidate-sync', users);
    const replayOf = (publishedBy: string) =>
      ({
        ...message('cr', { [Header.PublishedBy]: publishedBy, [Header.ReplayOf]: 'f1' }),
        fields: { routingKey: Queue.CandidateSync, exchange: 'candidate-sync.events.dlx' },
      }) as ConsumeMessage;
    const replay = replayOf('platform');
    expect(candidates(replay, RoutingKey.CandidateCreated)).toBeUndefined();
    expect(replay.properties.headers?.[Header.PublishedBy]).toBe(Exchange.PlatformEvents);
    // One of our services' users is never the platform, on a replay or on a retry copy of our own.
    expect(candidates(replayOf('vs'), RoutingKey.CandidateCreated)).toMatch(/"vs"/);
    const ownCopy = message('cs', { [Header.PublishedBy]: 'platform' });
    expect(candidates(ownCopy, RoutingKey.CandidateCreated)).toMatch(/"platform": only the platform/);
  });

  it('in local mode still requires a user_id, of the one shared user', () => {
    const local = publisherCheck('connector-registry', BrokerUsers.parse('', 'guest'));
    expect(local(message('guest'), RoutingKey.ConnectorStatusChanged)).toBeUndefined();
    expect(local(message(undefined), RoutingKey.ConnectorStatusChanged)).toMatch(/without user_id/);
    expect(local(message('someone-else'), RoutingKey.ConnectorStatusChanged)).toMatch(/"someone-else"/);
  });
});

describe(deadLetterWriters.name, () => {
  it("believes a queue's dead letters only from its own service and the registry", () => {
    const writes = deadLetterWriters(BrokerUsers.parse(PER_SERVICE, 'x'));
    expect(writes(Queue.DocumentService, 'ds')).toBe(true);
    expect(writes(Queue.DocumentService, 'cr')).toBe(true);
    expect(writes(Queue.DocumentService, 'vs')).toBe(false);
    expect(writes(Queue.DocumentService, 'cs')).toBe(false);
    expect(writes(Queue.DocumentService, undefined)).toBe(false);
    expect(writes('unknown.queue', 'ds')).toBe(false);
  });
});

describe(publisherRefusal.name, () => {
  const users = BrokerUsers.parse(PER_SERVICE, 'x');
  it('says why a sender may not publish a type, as the consumer would', () => {
    expect(publisherRefusal(RoutingKey.CandidateSynced, 'cs', users)).toBeUndefined();
    expect(publisherRefusal(RoutingKey.CandidateSynced, 'vs', users)).toBe(
      'refused candidate.synced from broker user "vs": only candidate-sync may publish it',
    );
    expect(publisherRefusal(RoutingKey.CandidateSynced, undefined, users)).toMatch(/without user_id/);
    expect(publisherRefusal(RoutingKey.CandidateCreated, undefined, users)).toBeUndefined();
    expect(publisherRefusal(RoutingKey.CandidateCreated, 'platform.events', users)).toBeUndefined();
    expect(publisherRefusal(RoutingKey.CandidateCreated, 'vs', users)).toMatch(/only the platform/);
  });
});

describe(outsideHeaderFilter.name, () => {
  const users = BrokerUsers.parse(PER_SERVICE, 'unused');
  const filter = outsideHeaderFilter('candidate-sync', users);
  const control = () => ({
    [Header.Attempt]: 9,
    [Header.DeadLetterReasons]: '["forged"]',
    [Header.Retryable]: true,
    [Header.FailedAt]: '2000-01-01T00:00:00Z',
    [Header.ConnectorId]: 'someone-elses',
    [Header.OriginalRoutingKey]: RoutingKey.CandidateErased,
    [Header.PublishedBy]: 'platform.events',
    [Header.ReplayOf]: 'f1',
    'x-death': [{ queue: Queue.CandidateSync, reason: 'delivery_limit', count: 1 }],
    'x-first-death-reason': 'rejected',
    traceparent: '00-abc-def-01',
  });
  const arrived = (userId: string | undefined, exchange: string) => {
    const delivered = {
      ...message(userId, control()),
      fields: { routingKey: RoutingKey.CandidateCreated, exchange },
    } as ConsumeMessage;
    filter(delivered);
    return delivered.properties.headers;
  };

  it('strips our control headers and x-death from what the platform or another service sent', () => {
    for (const [userId, exchange] of [
      [undefined, Exchange.PlatformEvents],
      ['platform', Exchange.PlatformEvents],
      ['cs', Exchange.ConnectorEvents], // our own user, but not through our own exchange
      ['vs', 'candidate-sync.events.dlx'], // cannot happen (no write there), and not believed if it did
    ] as const) {
      expect([userId, exchange, arrived(userId, exchange)]).toEqual([
        userId,
        exchange,
        { traceparent: '00-abc-def-01' },
      ]);
    }
  });

  it('keeps them on our own copies: through our exchange (or the old default one), by us or a registry replay', () => {
    expect(arrived('cs', 'candidate-sync.events.dlx')).toEqual(control());
    expect(arrived('cs', '')).toEqual(control());
    expect(arrived('cr', 'candidate-sync.events.dlx')).toEqual(control());
  });
});
