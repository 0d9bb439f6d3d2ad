import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A small HTTP server for a sandbox that needs no framework (the throwaway ATSs of the tests): the request read
 * whole (at most `maxBodyBytes`), one handler answering it. Larger sandboxes use fastify. Its exports are
 * `@internal` for knip: only the tests' throwaway sandboxes use them today, and those are not production code.
 */
export interface SandboxRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  /** The body as text ('' when none). */
  body: string;
}

export interface SandboxReply {
  status: number;
  headers?: Record<string, string>;
  /** An object is sent as JSON, a string as it is (set `content-type` for HTML). */
  body?: string | object;
}

export type SandboxHandler = (request: SandboxRequest) => SandboxReply | Promise<SandboxReply>;

export interface ServedSandbox {
  url: string;
  close(): Promise<void>;
}

const MAX_BODY_BYTES = 1024 * 1024;

/** @internal */
export async function serveSandbox(
  handler: SandboxHandler,
  options: { port: number; host: string; maxBodyBytes?: number },
): Promise<ServedSandbox> {
  const maxBodyBytes = options.maxBodyBytes ?? MAX_BODY_BYTES;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= maxBodyBytes) chunks.push(chunk);
    });
    req.on('end', () => {
      const answer = async (): Promise<SandboxReply> => {
        if (size > maxBodyBytes) return { status: 413, body: 'request body too large' };
        const url = new URL(req.url ?? '/', 'http://sandbox');
        return handler({
          method: req.method ?? 'GET',
          path: url.pathname,
          query: url.searchParams,
          headers: req.headers,
          body: Buffer.concat(chunks).toString('utf8'),
        });
      };
      answer().then(
        (reply) => {
          const text = typeof reply.body === 'string' ? reply.body : JSON.stringify(reply.body ?? '');
          const type = typeof reply.body === 'string' ? 'text/plain; charset=utf-8' : 'application/json';
          res.writeHead(reply.status, { 'content-type': type, ...reply.headers });
          res.end(reply.body === undefined ? undefined : text);
        },
        (error: unknown) => {
          res.writeHead(500, { 'content-type': 'text/plain' });
          res.end(`sandbox fault: ${error instanceof Error ? error.message : String(error)}`);
        },
      );
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${options.host}:${port}`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

/** @internal The bearer token of an `Authorization` header, or undefined. */
export function bearerOf(headers: IncomingHttpHeaders): string | undefined {
  return /^Bearer (\S+)$/i.exec(headers.authorization ?? '')?.[1];
}

/** @internal A form-encoded body as parameters; undefined when the request is not `application/x-www-form-urlencoded`. */
export function formOf(request: SandboxRequest): URLSearchParams | undefined {
  const type = request.headers['content-type'] ?? '';
  return type.split(';')[0]?.trim() === 'application/x-www-form-urlencoded'
    ? new URLSearchParams(request.body)
    : undefined;
}

/** @internal A JSON body as an object; undefined when the request is not JSON or does not parse to an object. */
export function jsonObjectOf(request: SandboxRequest): Record<string, unknown> | undefined {
  const type = request.headers['content-type'] ?? '';
  if (type.split(';')[0]?.trim() !== 'application/json') return undefined;
  try {
    const parsed: unknown = JSON.parse(request.body);
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)
      ? (parsed as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}
