import { createServer, type Server } from 'node:net';
import { type HostResolver, OutboundGuard } from '@connector/ats-clients';
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
    await expect(download).rejects.toThrow(/document URL refused: .*127\.0\.0\.1, a loopback address/);
    expect(connections).toBe(0);
  });
});
