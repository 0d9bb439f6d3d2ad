import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';

export interface HttpGate {
  url: string;
  close(): Promise<void>;
}

/**
 * An HTTP pass-through on loopback in front of `target`, as a customer's own gateway fronts their ATS: each
 * request goes on with its method, body, content type and authorization, unless `intercept` answers it itself
 * (and returns true).
 */
export async function startHttpGate(
  target: string,
  intercept: (req: IncomingMessage, res: ServerResponse) => boolean = () => false,
): Promise<HttpGate> {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      if (intercept(req, res)) return;
      void fetch(`${target}${req.url}`, {
        method: req.method,
        headers: {
          'content-type': String(req.headers['content-type'] ?? 'application/json'),
          authorization: String(req.headers.authorization ?? ''),
        },
        body: chunks.length ? Buffer.concat(chunks) : undefined,
      }).then(
        async (answer) => {
          res.writeHead(answer.status, {
            'content-type': answer.headers.get('content-type') ?? 'application/json',
          });
          res.end(Buffer.from(await answer.arrayBuffer()));
        },
        () => res.writeHead(502).end(),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as { port: number }).port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
