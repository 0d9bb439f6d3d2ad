import {
  Agent,
  createServer,
  type IncomingHttpHeaders,
  type IncomingMessage,
  request as httpRequest,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import type { SeededRandom } from './seeded-random';

/** A request the proxy caught and keeps waiting until the scenario lets it through or drops it. */
export interface HeldRequest {
  method: string;
  path: string;
  /** Forwards it as if nothing happened. */
  release(): void;
  /** Resets the client's connection without forwarding: the ATS never sees the request. */
  drop(): void;
}

interface Hold {
  match: (method: string, path: string) => boolean;
  resolve: (held: HeldRequest) => void;
}

const HOP_BY_HOP = ['connection', 'keep-alive', 'proxy-connection', 'upgrade'];

/**
 * An HTTP proxy on loopback in front of an ATS sandbox, for the faults the sandboxes do not make themselves:
 * connection resets (before the request reaches the ATS, or after the ATS answered, so the write happened
 * and its answer is lost) and requests held at a chosen moment (to kill -9 the process that sent one).
 * Decisions come from a seeded PRNG.
 */
export class FaultProxy {
  /** Share of requests whose connection is reset (half before forwarding, half after the answer). */
  resetRate = 0;
  readonly stats = { requests: 0, resetBeforeForward: 0, resetAfterAnswer: 0, held: 0 };
  private readonly holds: Hold[] = [];
  private readonly agent = new Agent({ keepAlive: true, maxSockets: 256 });

  private constructor(
    private readonly server: Server,
    private target: URL,
    private readonly random: SeededRandom,
    readonly url: string,
  ) {}

  static async start(target: string, random: SeededRandom): Promise<FaultProxy> {
    const server = createServer();
    server.keepAliveTimeout = 30_000;
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const proxy = new FaultProxy(server, new URL(target), random, `http://127.0.0.1:${port}`);
    server.on('request', (request: IncomingMessage, response: ServerResponse) =>
      proxy.handle(request, response),
    );
    return proxy;
  }

  /** Sends what comes next to `target` (a sandbox that could only start once this proxy's address was known). */
  pointAt(target: string): void {
    this.target = new URL(target);
  }

  /** Resolves with the next request that matches; it is held until `release()` or `drop()`. */
  hold(match: (method: string, path: string) => boolean): Promise<HeldRequest> {
    return new Promise((resolve) => this.holds.push({ match, resolve }));
  }

  /** Forgets holds that have not caught anything yet. */
  clearHolds(): void {
    this.holds.length = 0;
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
    this.agent.destroy();
  }

  private handle(request: IncomingMessage, response: ServerResponse): void {
    this.stats.requests++;
    const method = request.method ?? 'GET';
    const path = request.url ?? '/';
    const holdIndex = this.holds.findIndex((h) => h.match(method, path));
    if (holdIndex >= 0) {
      const [hold] = this.holds.splice(holdIndex, 1);
      this.stats.held++;
      hold.resolve({
        method,
        path,
        release: () => this.forward(request, response, false),
        drop: () => request.socket.resetAndDestroy(),
      });
      return;
    }
    if (this.resetRate > 0 && this.random.chance(this.resetRate)) {
      if (this.random.chance(0.5)) {
        this.stats.resetBeforeForward++;
        request.socket.resetAndDestroy();
        return;
      }
      this.forward(request, response, true);
      return;
    }
    this.forward(request, response, false);
  }

  private forward(request: IncomingMessage, response: ServerResponse, resetAfterAnswer: boolean): void {
    const upstream = httpRequest(
      {
        host: this.target.hostname,
        port: this.target.port,
        method: request.method,
        path: request.url,
        headers: { ...withoutHopByHop(request.headers), host: this.target.host },
        agent: this.agent,
      },
      (answer) => {
        if (resetAfterAnswer) {
          // The ATS did the work; the client only sees its connection die.
          answer.resume();
          answer.on('end', () => {
            this.stats.resetAfterAnswer++;
            request.socket.resetAndDestroy();
          });
          return;
        }
        response.writeHead(answer.statusCode ?? 502, withoutHopByHop(answer.headers));
        answer.pipe(response);
      },
    );
    upstream.on('error', () => {
      if (!response.headersSent) response.writeHead(502).end();
      else response.destroy();
    });
    // A client that vanishes before its request was complete never sent it; a complete one was sent.
    request.on('close', () => {
      if (!request.complete) upstream.destroy();
    });
    request.pipe(upstream);
  }
}

function withoutHopByHop(headers: IncomingHttpHeaders): IncomingHttpHeaders {
  const copy = { ...headers };
  for (const name of HOP_BY_HOP) delete copy[name];
  return copy;
}
