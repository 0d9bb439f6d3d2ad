import { createHash } from 'node:crypto';
import { OAUTH_CALLBACK_PATH } from '@connector/contracts';

/**
 * Binds the OAuth round trip to the browser that started it (the gateway checks it against `state`). One
 * cookie per login, named after its state, so two logins in one browser (two tabs, two connectors) do not
 * overwrite each other's nonce.
 */
const OAUTH_COOKIE_PREFIX = 'oauth_nonce_';
const OAUTH_COOKIE_MAX_AGE_SECONDS = 600;
/** Every ATS's callback is under it (`/oauth/{type}/callback`). */
const COOKIE_PATH = OAUTH_CALLBACK_PATH.slice(0, OAUTH_CALLBACK_PATH.indexOf('/', 1)); // "/oauth"

/** The cookie name of the login with this `state` (a hash: the name says nothing about the state). */
export function oauthCookieName(state: string): string {
  return `${OAUTH_COOKIE_PREFIX}${createHash('sha256').update(state).digest('hex').slice(0, 24)}`;
}

/** `secure`: the page is served over https (then the browser sends the cookie only over https). */
export function nonceCookie(state: string, nonce: string, secure: boolean): string {
  return cookie(`${oauthCookieName(state)}=${nonce}`, OAUTH_COOKIE_MAX_AGE_SECONDS, secure);
}

export function clearedNonceCookie(state: string, secure: boolean): string {
  return cookie(`${oauthCookieName(state)}=`, 0, secure);
}

function cookie(pair: string, maxAge: number, secure: boolean): string {
  return `${pair}; HttpOnly; SameSite=Lax; Path=${COOKIE_PATH}; Max-Age=${maxAge}${secure ? '; Secure' : ''}`;
}

/** The nonce of the login with this `state` from a `Cookie` header, if the browser sent it. */
export function readNonce(cookieHeader: string | undefined, state: string): string | undefined {
  const wanted = oauthCookieName(state);
  for (const part of (cookieHeader ?? '').split(';')) {
    const [name, ...value] = part.trim().split('=');
    if (name === wanted && value.join('=')) return value.join('=');
  }
  return undefined;
}
