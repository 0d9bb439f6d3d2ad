/** Keys whose values never reach a log line, wherever they sit in a logged object. */
export const SECRET_KEYS = [
  'clientSecret',
  'client_secret',
  'secret',
  'password',
  'accessToken',
  'access_token',
  'refreshToken',
  'refresh_token',
  'BhRestToken',
  'bhRestToken',
  'authorization',
  'Authorization',
  'code',
  'apiKey',
  'encryptionKey',
];

const SECRET_PATTERNS: Array<[RegExp, string]> = [
  [/\b(Bearer)\s+[\w.~+/=-]+/gi, '$1 [REDACTED]'],
  [/\b(access_token|refresh_token|client_secret|BhRestToken|code|password)=([^&\s"']+)/gi, '$1=[REDACTED]'],
  [
    /("(?:clientSecret|client_secret|access_token|accessToken|refresh_token|refreshToken|BhRestToken|password)"\s*:\s*)"[^"]*"/gi,
    '$1"[REDACTED]"',
  ],
  [/\b(amqps?|postgres(?:ql)?):\/\/([^:@/\s]+):([^@/\s]+)@/gi, '$1://$2:[REDACTED]@'],
  // A request's sealed client secret (REQUEST_SEAL_KEYS): ciphertext, but a secret field all the same.
  [/("(?:clientSecret|client_secret)"\s*:\s*)\{[^{}]*\}/gi, '$1"[REDACTED]"'],
];

/** Scrubs secrets out of free text (error messages, URLs with credentials or tokens in the query). */
export function redactText(text: string): string {
  return SECRET_PATTERNS.reduce((out, [pattern, replacement]) => out.replace(pattern, replacement), text);
}

/** SECRET_KEYS as a message body's fields: `code` there is an error code, not an OAuth code. */
const SECRET_FIELDS = new Set(SECRET_KEYS.filter((key) => key !== 'code'));

/**
 * A message body with every secret field's value (SECRET_KEYS, at any depth) replaced by `[REDACTED]`; a
 * body that is not JSON is scrubbed as text. `redacted` says whether anything was.
 */
export function redactBody(body: Buffer): { body: Buffer; redacted: boolean } {
  const text = body.toString('utf8');
  const asText = () => {
    const scrubbed = redactText(text);
    return scrubbed === text ? { body, redacted: false } : { body: Buffer.from(scrubbed), redacted: true };
  };
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return asText();
  }
  // A hostile body nested deeper than the walk's stack: scrubbed as text instead.
  if (deeperThan(parsed, MAX_WALKED_DEPTH)) return asText();
  let redacted = false;
  const walk = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(walk);
    if (typeof value !== 'object' || value === null) return value;
    return Object.fromEntries(
      Object.entries(value).map(([key, inner]) => {
        if (!SECRET_FIELDS.has(key)) return [key, walk(inner)];
        redacted = true;
        return [key, '[REDACTED]'];
      }),
    );
  };
  const scrubbed = walk(parsed);
  return redacted ? { body: Buffer.from(JSON.stringify(scrubbed)), redacted } : { body, redacted };
}

/** Far beyond any message of the contract (the consumers refuse more than 32 levels). */
const MAX_WALKED_DEPTH = 64;

function deeperThan(value: unknown, limit: number): boolean {
  const stack: Array<{ value: unknown; depth: number }> = [{ value, depth: 1 }];
  for (let item = stack.pop(); item; item = stack.pop()) {
    if (typeof item.value !== 'object' || item.value === null) continue;
    if (item.depth > limit) return true;
    for (const child of Object.values(item.value)) stack.push({ value: child, depth: item.depth + 1 });
  }
  return false;
}
