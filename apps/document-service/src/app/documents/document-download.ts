import { createHash } from 'node:crypto';
import { pipeline, type Readable } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import { discard, type GuardedStream, type OutboundGuard, UrlPolicyError } from '@connector/ats-http';
import { PermanentMessageError, TransientMessageError } from '@connector/messaging';

export interface DownloadOptions {
  maxBytes: number;
  timeoutMs: number;
  /**
   * Which addresses may be downloaded from: the platform's file URLs must not reach into private networks.
   * Checked on the URL of every hop and on every address its connection resolves to.
   */
  guard: OutboundGuard;
  /** Injectable for unit tests (default `guard.open`); each URL is still checked, the connection not guarded. */
  open?: (url: string, init: OpenInit) => Promise<GuardedStream>;
}

interface OpenInit {
  signal: AbortSignal;
  headers: Record<string, string>;
}

const MAX_REDIRECTS = 3;

/** The file's own bytes are what its sha256 is of: asked for unencoded, decoded when a server encodes anyway. */
const REQUEST_HEADERS = { 'Accept-Encoding': 'identity' };

export interface ExpectedFile {
  url: string;
  sha256: string;
  sizeBytes: number;
}

const MIB = 1024 * 1024;
const size = (bytes: number) => (bytes >= MIB ? `${(bytes / MIB).toFixed(1)} MiB` : `${bytes} bytes`);

/** A file over the cap is refused before a byte is read when the platform or the server says how big it is. */
export function checkDeclaredSize(sizeBytes: number, maxBytes: number): void {
  if (sizeBytes > maxBytes) {
    throw new PermanentMessageError(
      `document is ${size(sizeBytes)}, more than the ${size(maxBytes)} allowed`,
    );
  }
}

function refused(error: UrlPolicyError): PermanentMessageError {
  // Not its text: it quotes a malformed URL whole, and a file URL's path may name the candidate.
  if (error.code === 'invalid_url')
    return new PermanentMessageError('document URL refused: not a web address');
  return new PermanentMessageError(`document URL refused: ${error.message.replace(/ATS /g, '')}`);
}

/**
 * Downloads a document with a size cap (refused early from Content-Length, enforced while streaming) and
 * checks its sha256. What cannot get better (too large, wrong checksum, 4xx) is permanent; the rest
 * (network, 5xx, timeout) may pass and is retried.
 */
export async function downloadDocument(file: ExpectedFile, options: DownloadOptions): Promise<Buffer> {
  checkDeclaredSize(file.sizeBytes, options.maxBytes);
  const { guard } = options;
  const open = options.open ?? ((url: string, init: OpenInit) => guard.open(url, init));
  const signal = AbortSignal.timeout(options.timeoutMs);
  let url = file.url;
  let response: GuardedStream;
  // Redirects are followed by hand so that every address on the way passes the policy (SSRF).
  for (let hop = 0; ; hop += 1) {
    try {
      guard.check(url);
      response = await open(url, { signal, headers: REQUEST_HEADERS });
    } catch (error) {
      if (error instanceof UrlPolicyError) throw refused(error);
      throw new TransientMessageError(`document download failed: ${(error as Error).message}`);
    }
    if (response.status < 300 || response.status >= 400) break;
    discard(response.body);
    const location = response.headers.get('location');
    if (!location) {
      throw new PermanentMessageError(`document download answered ${response.status} without a Location`);
    }
    if (hop >= MAX_REDIRECTS)
      throw new PermanentMessageError(`document URL redirects more than ${MAX_REDIRECTS} times`);
    url = redirectTarget(location, url);
  }
  if (response.status < 200 || response.status >= 300) {
    const message = `document download answered ${response.status}`;
    discard(response.body);
    if (
      response.status >= 400 &&
      response.status < 500 &&
      response.status !== 408 &&
      response.status !== 429
    ) {
      throw new PermanentMessageError(message);
    }
    throw new TransientMessageError(message);
  }
  const declared = Number(response.headers.get('content-length') ?? NaN);
  if (Number.isFinite(declared) && declared > options.maxBytes) {
    discard(response.body);
    checkDeclaredSize(declared, options.maxBytes);
  }
  const body = decoded(response);
  const hash = createHash('sha256');
  const chunks: Buffer[] = [];
  let received = 0;
  try {
    // Leaving the loop early (over the cap) destroys the stream; its error then has this loop as listener.
    for await (const chunk of body as AsyncIterable<Buffer>) {
      received += chunk.byteLength;
      if (received > options.maxBytes) {
        throw new PermanentMessageError(`document is larger than the ${size(options.maxBytes)} allowed`);
      }
      hash.update(chunk);
      chunks.push(chunk);
    }
  } catch (error) {
    if (error instanceof PermanentMessageError) throw error;
    throw new TransientMessageError(`document download broke off: ${(error as Error).message}`);
  }
  const actual = hash.digest('hex');
  if (actual !== file.sha256.toLowerCase()) {
    throw new PermanentMessageError(
      `document checksum mismatch: expected sha256 ${file.sha256.toLowerCase()}, got ${actual}; nothing uploaded`,
    );
  }
  return Buffer.concat(chunks);
}

function redirectTarget(location: string, from: string): string {
  try {
    return new URL(location, from).toString();
  } catch {
    throw new PermanentMessageError(`document URL redirects to an address that is not a URL`);
  }
}

/**
 * The body as the file's bytes: a server that compresses though `identity` was asked gets its encoding undone
 * (the size cap then counts the decoded bytes, so a compression bomb stops at the cap too).
 */
function decoded(response: GuardedStream): Readable {
  const encoding = (response.headers.get('content-encoding') ?? 'identity').trim().toLowerCase();
  const decoder =
    encoding === 'identity'
      ? undefined
      : encoding === 'gzip' || encoding === 'x-gzip'
        ? createGunzip()
        : encoding === 'deflate'
          ? createInflate()
          : encoding === 'br'
            ? createBrotliDecompress()
            : null;
  if (decoder === undefined) return response.body;
  if (decoder === null) {
    discard(response.body);
    throw new PermanentMessageError(
      `document is served with Content-Encoding "${encoding}", which cannot be read`,
    );
  }
  // An error of either stream ends the other and reaches the reader of the decoder.
  return pipeline(response.body, decoder, () => undefined);
}
