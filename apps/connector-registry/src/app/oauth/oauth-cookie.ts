import { OAUTH_CALLBACK_PATH } from '@connector/contracts';

/** Binds the OAuth round trip to the browser that started it (the gateway checks it against `state`). */
export const OAUTH_COOKIE = 'ats_b_oauth';
export const OAUTH_COOKIE_MAX_AGE_SECONDS = 600;
const COOKIE_PATH = OAUTH_CALLBACK_PATH.slice(0, OAUTH_CALLBACK_PATH.indexOf('/', 1)); // "/oauth"

export function nonceCookie(nonce: string, secure: boolean): string {
  return cookie(`${OAUTH_COOKIE}=${nonce}`, OAUTH_COOKIE_MAX_AGE_SECONDS, secure);
}

export function clearedNonceCookie(secure: boolean): string {
  return cookie(`${OAUTH_COOKIE}=`, 0, secure);
}

function cookie(pair: string, maxAge: number, secure: boolean): string {
  return `${pair}; HttpOnly; SameSite=Lax; Path=${COOKIE_PATH}; Max-Age=${maxAge}${secure ? '; Secure' : ''}`;
}

/** The nonce from a `Cookie` header, if the browser sent one. */
export function readNonce(cookieHeader: string | undefined): string | undefined {
  for (const part of (cookieHeader ?? '').split(';')) {
    const [name, ...value] = part.trim().split('=');
    if (name === OAUTH_COOKIE && value.join('=')) return value.join('=');
  }
  return undefined;
}
