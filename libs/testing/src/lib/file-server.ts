import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';

export interface FileServer {
  readonly url: string;
  /** Serves `content` as a PDF at a new path and returns its URL; `chunked` leaves out Content-Length. */
  serve(content: Buffer, options?: { chunked?: boolean }): string;
  close(): Promise<void>;
}

/** A local HTTP server of document files, where the platform's storage would be. */
export async function startFileServer(): Promise<FileServer> {
  const served = new Map<string, { content: Buffer; chunked: boolean }>();
  const server = createServer((request, response) => {
    const file = served.get(request.url ?? '');
    if (!file) {
      response.writeHead(404).end();
      return;
    }
    if (file.chunked) {
      // No Content-Length: only counting while streaming can stop an oversized file.
      response.writeHead(200, { 'content-type': 'application/pdf' });
      for (let i = 0; i < file.content.length; i += 8192) response.write(file.content.subarray(i, i + 8192));
      response.end();
      return;
    }
    response.writeHead(200, { 'content-type': 'application/pdf', 'content-length': file.content.length });
    response.end(file.content);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  return {
    url,
    serve(content, options = {}) {
      const path = `/files/${randomUUID()}`;
      served.set(path, { content, chunked: options.chunked ?? false });
      return `${url}${path}`;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
