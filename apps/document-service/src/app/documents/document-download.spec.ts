import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { type GuardedStream, outboundGuard } from '@connector/ats-http';
import { PermanentMessageError, TransientMessageError } from '@connector/messaging';
import { checkDeclaredSize, downloadDocument } from './document-download';

const sha = (content: Buffer) => createHash('sha256').update(content).digest('hex');
const content = Buffer.from('%PDF-1.7 a small CV');

/** An `open` that serves `body` in chunks of 4 bytes and counts how many bytes were read from it. */
function serving(body: Buffer, init: { status?: number; contentLength?: number } = {}) {
  const read = { bytes: 0 };
  const open = async (): Promise<GuardedStream> => {
    const chunks = function* () {
      for (let i = 0; i < body.length; i += 4) {
        const chunk = body.subarray(i, i + 4);
        read.bytes += chunk.length;
        yield chunk;
      }
    };
    const headers = new Headers();
    if (init.contentLength !== undefined) headers.set('content-length', String(init.contentLength));
    return { status: init.status ?? 200, headers, body: Readable.from(chunks()) };
  };
  return { open, read };
}

/** Local mode: plain http and loopback allowed. The default: https and public addresses only. */
const OPEN = outboundGuard('loopback');
const PRODUCTION = outboundGuard('none');

const file = (overrides: Partial<{ sha256: string; sizeBytes: number }> = {}) => ({
  url: 'http://files.test/cv.pdf',
  sha256: sha(content),
  sizeBytes: content.length,
  ...overrides,
});

describe(downloadDocument.name, () => {
  it('returns the bytes when size and sha256 match', async () => {
    const { open } = serving(content);
    await expect(
      downloadDocument(file(), { maxBytes: 1024, timeoutMs: 1000, guard: OPEN, open }),
    ).resolves.toEqual(content);
  });

  it('refuses a file whose declared size is over the cap without downloading it', async () => {
    expect(() => checkDeclaredSize(11 * 1024 * 1024, 10 * 1024 * 1024)).toThrow(
      /11\.0 MiB, more than the 10\.0 MiB/,
    );
    const { open } = serving(content);
    const openSpy = jest.fn(open);
    await expect(
      downloadDocument(file({ sizeBytes: 2048 }), {
        maxBytes: 1024,
        timeoutMs: 1000,
        guard: OPEN,
        open: openSpy,
      }),
    ).rejects.toBeInstanceOf(PermanentMessageError);
    expect(openSpy).not.toHaveBeenCalled();
  });

  it('refuses from Content-Length before reading the body', async () => {
    const { open, read } = serving(content, { contentLength: 5000 });
    await expect(
      downloadDocument(file(), { maxBytes: 1024, timeoutMs: 1000, guard: OPEN, open }),
    ).rejects.toThrow(/more than the 1024 bytes allowed/);
    expect(read.bytes).toBe(0); // not a byte read
  });

  it('enforces the cap while streaming when the server lies or says nothing', async () => {
    const big = Buffer.alloc(64, 1);
    const { open } = serving(big);
    await expect(
      downloadDocument(
        { ...file(), sha256: sha(big), sizeBytes: 8 },
        { maxBytes: 16, timeoutMs: 1000, guard: OPEN, open },
      ),
    ).rejects.toThrow(/larger than the 16 bytes allowed/);
  });

  it('fails permanently on a checksum mismatch', async () => {
    const { open } = serving(content);
    await expect(
      downloadDocument(file({ sha256: 'a'.repeat(64) }), {
        maxBytes: 1024,
        timeoutMs: 1000,
        guard: OPEN,
        open,
      }),
    ).rejects.toThrow(/checksum mismatch.*nothing uploaded/);
  });

  it('tells a missing file (permanent) from a server in trouble (transient)', async () => {
    await expect(
      downloadDocument(file(), {
        maxBytes: 1024,
        timeoutMs: 1000,
        guard: OPEN,
        open: serving(content, { status: 404 }).open,
      }),
    ).rejects.toBeInstanceOf(PermanentMessageError);
    const unavailable = downloadDocument(file(), {
      maxBytes: 1024,
      timeoutMs: 1000,
      guard: OPEN,
      open: serving(content, { status: 503 }).open,
    });
    await expect(unavailable).rejects.toBeInstanceOf(TransientMessageError);
    await expect(unavailable).rejects.not.toBeInstanceOf(PermanentMessageError);
  });

  it('refuses, by default, a URL into a private network or over plain http, before any request', async () => {
    const openSpy = jest.fn();
    for (const url of [
      'https://127.0.0.1/cv.pdf',
      'https://10.1.2.3/cv.pdf',
      'http://93.184.216.34/cv.pdf',
      'https://[::ffff:0:a01:203]/cv.pdf',
      'https://[64:ff9b:1::a01:203]/cv.pdf',
      'https://[2001::1]/cv.pdf',
    ]) {
      await expect(
        downloadDocument(
          { ...file(), url },
          { maxBytes: 1024, timeoutMs: 1000, guard: PRODUCTION, open: openSpy },
        ),
      ).rejects.toThrow(/document URL refused/);
    }
    expect(openSpy).not.toHaveBeenCalled();
  });

  it('refuses a URL that is no web address without quoting it (its path may name the candidate)', async () => {
    const open = jest.fn();
    await expect(
      downloadDocument(
        { ...file(), url: 'files/Jane Doe CV.pdf' },
        { maxBytes: 1024, timeoutMs: 1000, guard: PRODUCTION, open },
      ),
    ).rejects.toThrow(new Error('document URL refused: not a web address'));
    expect(open).not.toHaveBeenCalled();
  });

  it('checks every redirect against the policy: a public URL cannot bounce into the metadata address', async () => {
    const open = jest.fn(async (): Promise<GuardedStream> => ({
      status: 302,
      headers: new Headers({ location: 'https://169.254.169.254/latest' }),
      body: Readable.from([]),
    }));
    await expect(
      downloadDocument(
        { ...file(), url: 'https://93.184.216.34/cv.pdf' },
        { maxBytes: 1024, timeoutMs: 1000, guard: PRODUCTION, open },
      ),
    ).rejects.toThrow(/document URL refused.*metadata/);
    expect(open).toHaveBeenCalledTimes(1);
  });
});
