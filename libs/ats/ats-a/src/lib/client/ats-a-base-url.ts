import { UrlPolicyError } from '@connector/ats-http';

/**
 * The customer's ATS-A address as the client wants it: scheme, host, port and path prefix, without a trailing
 * `/` or a pasted `/api` (users paste both). A bare host name gets https://.
 */
export function normalizeAtsABaseUrl(input: string): string {
  // Asked again on every call to the ATS (the client, the budget's key) with the same address.
  if (last?.input === input) return last.output;
  const output = normalized(input);
  last = { input, output };
  return output;
}

let last: { input: string; output: string } | undefined;

function normalized(input: string): string {
  const trimmed = input.trim();
  if (trimmed === '') throw new UrlPolicyError('invalid_url', 'The ATS address is empty');
  // "acme.eploy.net" is what people type; only a missing scheme is filled in, never http.
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(trimmed) ? trimmed : `https://${trimmed}`;
  let url: URL;
  try {
    url = new URL(withScheme);
  } catch {
    throw new UrlPolicyError(
      'invalid_url',
      `"${trimmed}" is not a web address; use e.g. https://acme.eploy.net`,
    );
  }
  if ((url.protocol !== 'https:' && url.protocol !== 'http:') || url.hostname === '') {
    throw new UrlPolicyError(
      'invalid_url',
      `"${trimmed}" is not an http(s) address; use e.g. https://acme.eploy.net`,
    );
  }
  if (url.username || url.password) {
    throw new UrlPolicyError(
      'credentials_in_url',
      'The ATS address must not contain a user name or password; enter credentials in their own fields',
    );
  }
  const path = url.pathname
    .replace(/\/+$/, '')
    .replace(/\/api$/i, '')
    .replace(/\/+$/, '');
  return `${url.protocol}//${url.host}${path}`;
}
