import { createServer, type Server } from 'node:net';
import { AtsError } from '../ats-error';
import { checkAtsUrlPolicy, type HostResolver } from '../url-policy';
import { AtsHttp, type AtsHttpOptions } from './ats-http';
import { OutboundGuard } from './outbound-guard';

/** A token request as an ATS client sends one (a JSON POST, not a write): the guard sees what it would. */
function requestToken(baseUrl: string, options: AtsHttpOptions) {
  return new AtsHttp('ATS', options, 60_000).send({
    endpoint: 'POST /api/token',
    method: 'POST',
    url: `${baseUrl}/api/token`,
    json: { grant_type: 'client_credentials', client_id: 'client', client_secret: 'secret' },
    write: false,
    secrets: ['secret'],
  });
}

/**
 * Real sockets, no broker: a server on 127.0.0.1 stands for what an attacker wants to reach (an admin port,
 * a metadata proxy), and counts every TCP connection that arrives.
 */
describe(OutboundGuard.name, () => {
  let server: Server;
  let port: number;
  let connections = 0;
  const guards: OutboundGuard[] = [];

  beforeAll(async () => {
    server = createServer((socket) => {
      connections++;
      socket.destroy();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as { port: number }).port;
  });
  beforeEach(() => (connections = 0));
  afterAll(async () => {
    await Promise.all(guards.map((guard) => guard.close()));
    await new Promise((resolve) => server.close(resolve));
  });

  const guard = (options: ConstructorParameters<typeof OutboundGuard>[0]) => {
    const made = new OutboundGuard(options);
    guards.push(made);
    return made;
  };

  /** DNS rebinding: the first answer (seen by the set-up check) is public, every later one 127.0.0.1. */
  const rebinding = (): HostResolver & { answers: string[] } => {
    const answers: string[] = [];
    const resolve = async () => {
      const address = answers.length === 0 ? '93.184.216.34' : '127.0.0.1';
      answers.push(address);
      return [{ address }];
    };
    return Object.assign(resolve, { answers });
  };

  async function caught(promise: Promise<unknown>): Promise<AtsError> {
    try {
      await promise;
    } catch (error) {
      if (error instanceof AtsError) return error;
      throw error;
    }
    throw new Error('expected an AtsError');
  }

  it('a rebinding DNS answer cannot reach a loopback server after the set-up check passed', async () => {
    const resolve = rebinding();
    const baseUrl = `https://ats.rebinding.test:${port}`;
    await expect(checkAtsUrlPolicy(baseUrl, 'none', resolve)).resolves.toBeUndefined();

    const error = await caught(requestToken(baseUrl, { guard: guard({ allowance: 'none', resolve }) }));

    expect(resolve.answers).toEqual(['93.184.216.34', '127.0.0.1']);
    expect(error).toMatchObject({ kind: 'permanent', code: 'blocked_address', ambiguous: false });
    expect(error.message).toContain('ats.rebinding.test points to a loopback address');
    // What a name points to is not told (a tenant would learn our network's map).
    expect(error.message).not.toContain('127.0.0.1');
    expect(connections).toBe(0);
  });

  it('control: the same answers do reach the server when loopback is allowed', async () => {
    const resolve = rebinding();
    await resolve('ats.rebinding.test'); // the set-up check's answer
    const error = await caught(
      requestToken(`https://ats.rebinding.test:${port}`, {
        guard: guard({ allowance: 'loopback', resolve }),
        quickRetry: false, // one try: the point is where it connects, not how often
      }),
    );
    expect(error.kind).toBe('unreachable'); // it connected, then the TLS handshake failed
    expect(connections).toBe(1);
  });

  it('refuses a host when any one of its addresses is refused', async () => {
    const resolve: HostResolver = async () => [{ address: '93.184.216.34' }, { address: '127.0.0.1' }];
    const error = await caught(
      requestToken(`https://ats.mixed.test:${port}`, {
        guard: guard({ allowance: 'none', resolve }),
      }),
    );
    expect(error).toMatchObject({ kind: 'permanent', code: 'blocked_address' });
    expect(connections).toBe(0);
  });

  it('checks an IP-literal host at connect time too, when a caller skips the URL check', async () => {
    const strict = guard({ allowance: 'none' });
    const direct = (url: string) =>
      fetch(url, { dispatcher: strict.dispatcher as unknown as RequestInit['dispatcher'] });
    await expect(direct(`https://127.0.0.1:${port}/`)).rejects.toMatchObject({
      cause: { message: expect.stringContaining('127.0.0.1 is a loopback address') },
    });
    await expect(direct(`https://[::ffff:0:7f00:1]:${port}/`)).rejects.toMatchObject({
      cause: { message: expect.stringContaining('a translated address') },
    });
    expect(connections).toBe(0);
  });

  it('lets an allowed address through: plain http to loopback under the loopback allowance', async () => {
    const web = await import('node:http');
    const site = web.createServer((_req, res) => res.end('ok'));
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    const sitePort = (site.address() as { port: number }).port;
    try {
      const local = guard({ allowance: 'loopback' });
      const response = await local.request(`http://localhost:${sitePort}/`, {});
      expect(response).toMatchObject({ status: 200, text: 'ok' });
      const streamed = await local.open(`http://localhost:${sitePort}/`, {});
      expect(Buffer.concat(await streamed.body.toArray()).toString()).toBe('ok');
      await expect(
        guard({ allowance: 'none' }).request(`http://localhost:${sitePort}/`, {}),
      ).rejects.toMatchObject({ code: 'insecure_scheme' });
    } finally {
      await new Promise((resolve) => site.close(resolve));
    }
  });
  it('reads an answer whole up to its cap, and refuses a larger one with or without Content-Length', async () => {
    const web = await import('node:http');
    const big = Buffer.alloc(2_000, 'x');
    const site = web.createServer((req, res) => {
      if (req.url === '/declared') res.writeHead(200, { 'content-length': big.length }).end(big);
      else if (req.url === '/chunked') res.writeHead(200).end(big);
      else res.writeHead(200).end('\uFEFF{"small":true}');
    });
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(site.address() as { port: number }).port}`;
    try {
      const local = guard({ allowance: 'loopback', maxAnswerBytes: 1_000 });
      await expect(local.request(`${base}/small`, {})).resolves.toMatchObject({ text: '{"small":true}' });
      for (const path of ['/declared', '/chunked']) {
        await expect(local.request(`${base}${path}`, {})).rejects.toMatchObject({
          code: 'answer_too_large',
        });
      }
      // The pool is still usable after both refusals.
      await expect(local.request(`${base}/small`, {})).resolves.toMatchObject({ status: 200 });
    } finally {
      await new Promise((resolve) => site.close(resolve));
    }
  });

  it('AtsHttp stops reading an endless answer at its cap: a permanent answer_too_large, never retried', async () => {
    const web = await import('node:http');
    const chunk = Buffer.alloc(64 * 1024, 'x');
    const endless = 256 * 1024 * 1024;
    let requests = 0;
    let written = 0;
    let closed!: () => void;
    const hungUp = new Promise<void>((resolve) => (closed = resolve));
    // A hostile host: chunked JSON that never ends (well, after 256 MiB), sent as fast as it is read.
    const site = web.createServer((_req, res) => {
      requests++;
      res.writeHead(200, { 'content-type': 'application/json' });
      res.on('close', closed);
      const pump = () => {
        while (written < endless && !res.destroyed) {
          written += chunk.length;
          if (!res.write(chunk)) return void res.once('drain', pump);
        }
        res.end();
      };
      pump();
    });
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(site.address() as { port: number }).port}`;
    try {
      const http = new AtsHttp(
        'ATS',
        { guard: guard({ allowance: 'loopback' }), maxResponseBytes: 1024 * 1024 },
        0,
      );
      const error = await http
        .send({
          endpoint: 'POST /api/vacancies/search',
          method: 'POST',
          url: `${base}/`,
          json: {},
          write: false,
        })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(AtsError);
      expect(error).toMatchObject({ kind: 'permanent', code: 'answer_too_large' });
      expect((error as AtsError).message).toContain('answered more than 1048576 bytes');
      await hungUp;
      // The connection was dropped soon after the cap, not read to its end (socket buffers account for the rest).
      expect(written).toBeLessThan(32 * 1024 * 1024);
      expect(requests).toBe(1); // permanent: no quick retry
    } finally {
      site.closeAllConnections();
      await new Promise((resolve) => site.close(resolve));
    }
  });
});
