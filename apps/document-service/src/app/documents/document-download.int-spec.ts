import { createHash } from 'node:crypto';
import { createServer as createHttpServer, type Server as HttpServer } from 'node:http';
import { createServer, type Server } from 'node:net';
import { gzipSync } from 'node:zlib';
import { type HostResolver, OutboundGuard } from '@connector/ats-http';
import { PermanentMessageError } from '@connector/messaging';
import { downloadDocument } from './document-download';

/** A platform file URL whose host answers DNS with a public address first and 127.0.0.1 afterwards. */
describe(`${downloadDocument.name} against DNS rebinding`, () => {
  let server: Server;
  let port: number;
  let connections = 0;
  let guard: OutboundGuard;

  beforeAll(async () => {
    // What the attacker wants to reach: anything on the service's own loopback.
    server = createServer((socket) => {
      connections++;
      socket.destroy();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as { port: number }).port;
  });
  afterAll(async () => {
    await guard.close();
    await new Promise((resolve) => server.close(resolve));
  });

  it('never connects to the loopback address the second answer gives', async () => {
    const answers = ['93.184.216.34', '127.0.0.1'];
    const resolve: HostResolver = async () => [{ address: answers.shift() ?? '127.0.0.1' }];
    await resolve('files.rebinding.test'); // an earlier check saw the public answer
    guard = new OutboundGuard({ allowance: 'none', resolve });

    const download = downloadDocument(
      { url: `https://files.rebinding.test:${port}/cv.pdf`, sha256: 'a'.repeat(64), sizeBytes: 10 },
      { maxBytes: 1024, timeoutMs: 5_000, guard },
    );

    await expect(download).rejects.toBeInstanceOf(PermanentMessageError);
    await expect(download).rejects.toThrow(
      /document URL refused: .*files\.rebinding\.test.* points to a loopback address/,
    );
    expect(connections).toBe(0);
  });
});

/** Real undici bodies from a real server: what a file host answers besides the file itself. */
describe(`${downloadDocument.name} against a file server`, () => {
  const cv = Buffer.from('%PDF-1.7 a CV');
  const sha256 = createHash('sha256').update(cv).digest('hex');
  let server: HttpServer;
  let base: string;
  let guard: OutboundGuard;
  const uncaught: unknown[] = [];
  const onUncaught = (error: unknown) => uncaught.push(error);

  beforeAll(async () => {
    server = createHttpServer((request, response) => {
      const route: Record<string, () => void> = {
        '/cv.pdf': () => response.writeHead(200, { 'content-length': cv.length }).end(cv),
        '/moved': () => response.writeHead(302, { location: '/cv.pdf' }).end('moved'),
        '/expired': () => response.writeHead(404, { 'content-type': 'text/html' }).end('<h1>expired</h1>'),
        '/huge': () => response.writeHead(200, { 'content-length': 5_000 }).end(Buffer.alloc(5_000)),
        '/huge-chunked': () => response.writeHead(200).end(Buffer.alloc(5_000)),
        '/gzipped': () => response.writeHead(200, { 'content-encoding': 'gzip' }).end(gzipSync(cv)),
        '/packed': () => response.writeHead(200, { 'content-encoding': 'compress' }).end(cv),
        '/bad-location': () => response.writeHead(302, { location: 'http://[::1' }).end(),
        '/no-location': () => response.writeHead(302).end(),
      };
      (route[request.url ?? ''] ?? (() => response.writeHead(500).end()))();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    guard = new OutboundGuard({ allowance: 'loopback' });
    process.on('uncaughtException', onUncaught);
  });
  afterAll(async () => {
    process.off('uncaughtException', onUncaught);
    await guard.close();
    await new Promise((resolve) => server.close(resolve));
  });

  const download = (path: string) =>
    downloadDocument(
      { url: `${base}${path}`, sha256, sizeBytes: cv.length },
      { maxBytes: 1_000, timeoutMs: 5_000, guard },
    );
  /** An unread body's `error` event comes a tick after it is let go: give it the time to come. */
  const settled = () => new Promise((resolve) => setTimeout(resolve, 50));

  it('follows a redirect to the file', async () => {
    await expect(download('/moved')).resolves.toEqual(cv);
    await settled();
    expect(uncaught).toEqual([]);
  });

  it.each([
    ['/expired', /answered 404/],
    ['/huge', /5000 bytes, more than the 1000 bytes allowed/],
    ['/huge-chunked', /larger than the 1000 bytes allowed/],
    ['/bad-location', /redirects to an address that is not a URL/],
    ['/no-location', /answered 302 without a Location/],
    ['/packed', /Content-Encoding "compress"/],
  ])('refuses %s for good, and the process lives on', async (path, why) => {
    await expect(download(path)).rejects.toThrow(why);
    await expect(download(path)).rejects.toBeInstanceOf(PermanentMessageError);
    await settled();
    expect(uncaught).toEqual([]);
  });

  it('undoes an encoding the server applied though none was asked for', async () => {
    await expect(download('/gzipped')).resolves.toEqual(cv);
  });
});
