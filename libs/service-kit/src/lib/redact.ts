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
];

/** Scrubs secrets out of free text (error messages, URLs with credentials or tokens in the query). */
export function redactText(text: string): string {
  return SECRET_PATTERNS.reduce((out, [pattern, replacement]) => out.replace(pattern, replacement), text);
}
