import { execFile, spawn } from 'node:child_process';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { promisify } from 'node:util';
import amqplib from 'amqplib';
import { createTestVhost, type TestVhost } from '@connector/testing';
import { BROKER_PRINCIPALS } from './broker-permissions';
import { type BrokerAccounts, removeBrokerUsers, setUpBrokerUsers } from './broker-setup';
import { brokerUrlAs, brokerVhostOf } from './broker-url';

const run = promisify(execFile);

/**
 * The management plugin is not enabled on this machine, so a stand-in answers its three endpoints the
 * way RabbitMQ documents them (Basic auth; GET /api/overview, POST /api/definitions, DELETE /api/users/:name)
 * and applies them with rabbitmqctl: what is checked is our side of the HTTP API, and that its effect is
 * real users on the real broker.
 */
describe('broker users through the management API, else rabbitmqctl', () => {
  let vhost: TestVhost;
  let api: Server;
  let apiUrl: string;
  const calls: Array<{ method: string; path: string; authorization?: string; body: string }> = [];

  const accounts = (tag: string): BrokerAccounts =>
    Object.fromEntries(
      BROKER_PRINCIPALS.map((principal) => [
        principal,
        { user: `${brokerVhostOf(vhost.url)}.${tag}.${principal}`, password: `pw-${tag}-${principal}` },
      ]),
    ) as BrokerAccounts;
  const canConnect = (url: string) =>
    amqplib.connect(url).then(
      (connection) => connection.close().then(() => true),
      () => false,
    );
  const users = (set: BrokerAccounts) => BROKER_PRINCIPALS.map((principal) => set[principal].user);

  function importDefinitions(body: string): Promise<number> {
    return new Promise((resolve) => {
      const child = spawn('rabbitmqctl', ['import_definitions'], { stdio: ['pipe', 'ignore', 'ignore'] });
      child.once('exit', (code) => resolve(code ?? 1));
      child.stdin.end(body);
    });
  }

  beforeAll(async () => {
    vhost = await createTestVhost('broker_setup');
    const admin = `Basic ${Buffer.from('guest:guest').toString('base64')}`;
    api = createServer((request: IncomingMessage, response) => {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString()));
      request.on('end', () => {
        const path = request.url ?? '';
        calls.push({
          method: request.method ?? '',
          path,
          authorization: request.headers.authorization,
          body,
        });
        const answer = async (): Promise<number> => {
          if (request.headers.authorization !== admin) return 401;
          if (request.method === 'GET' && path === '/api/overview') return 200;
          if (request.method === 'POST' && path === '/api/definitions') {
            return (await importDefinitions(body)) === 0 ? 204 : 400;
          }
          const user = /^\/api\/users\/([^/]+)$/.exec(path)?.[1];
          if (request.method === 'DELETE' && user) {
            return run('rabbitmqctl', ['delete_user', decodeURIComponent(user)]).then(
              () => 204,
              () => 404,
            );
          }
          return 404;
        };
        void answer().then((status) => response.writeHead(status).end(status === 200 ? '{}' : ''));
      });
    });
    await new Promise<void>((resolve) => api.listen(0, '127.0.0.1', resolve));
    apiUrl = `http://127.0.0.1:${(api.address() as AddressInfo).port}`;
  }, 60_000);

  afterAll(async () => {
    await new Promise((resolve) => api?.close(resolve));
    await vhost?.drop();
  });

  it('imports users, vhost and permissions through the management API, with hashes, never passwords', async () => {
    const set = accounts('api');
    expect(await setUpBrokerUsers({ adminUrl: vhost.url, managementUrl: apiUrl, accounts: set })).toEqual({
      method: 'management API',
    });
    const posted = calls.find((call) => call.method === 'POST');
    expect(posted?.path).toBe('/api/definitions');
    expect(posted?.authorization).toBe(`Basic ${Buffer.from('guest:guest').toString('base64')}`);
    const definitions = JSON.parse(posted!.body) as {
      users: Array<{ name: string }>;
      permissions: Array<{ vhost: string }>;
    };
    expect(definitions.users.map((user) => user.name)).toEqual(users(set));
    expect(new Set(definitions.permissions.map((p) => p.vhost))).toEqual(new Set([brokerVhostOf(vhost.url)]));
    expect(posted!.body).not.toContain(set.platform.password);
    expect(await canConnect(brokerUrlAs(vhost.url, set.platform.user, set.platform.password))).toBe(true);

    await removeBrokerUsers({ adminUrl: vhost.url, managementUrl: apiUrl, users: users(set) });
    expect(calls.filter((call) => call.method === 'DELETE').map((call) => call.path)).toEqual(
      users(set).map((user) => `/api/users/${encodeURIComponent(user)}`),
    );
    expect(await canConnect(brokerUrlAs(vhost.url, set.platform.user, set.platform.password))).toBe(false);
  });

  it('uses rabbitmqctl when the management API refuses or does not answer, the broker being local', async () => {
    const set = accounts('ctl');
    const refusing = new URL(apiUrl);
    refusing.username = 'guest';
    refusing.password = 'wrong';
    for (const managementUrl of [refusing.toString(), 'http://127.0.0.1:9']) {
      expect(await setUpBrokerUsers({ adminUrl: vhost.url, managementUrl, accounts: set })).toEqual({
        method: 'rabbitmqctl',
      });
    }
    expect(
      await canConnect(brokerUrlAs(vhost.url, set['auth-gateway'].user, set['auth-gateway'].password)),
    ).toBe(true);
    await removeBrokerUsers({ adminUrl: vhost.url, managementUrl: 'http://127.0.0.1:9', users: users(set) });
    expect(
      await canConnect(brokerUrlAs(vhost.url, set['auth-gateway'].user, set['auth-gateway'].password)),
    ).toBe(false);
  });
});
