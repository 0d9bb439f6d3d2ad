// @ts-check
// The admin API (/api/v1) as the page uses it: the account's key from this tab's sessionStorage, one error type.
const KEY_STORAGE = 'ats-connector-admin-key';

export const BASE = /** @type {HTMLMetaElement} */ (document.querySelector('meta[name="admin-base"]'))
  .content;

export class ApiError extends Error {
  /**
   * @param {number} status
   * @param {{ message?: string, code?: string, details?: { errors?: string[] } } | null} body
   */
  constructor(status, body) {
    super((body && body.message) || `The connector service answered ${status}.`);
    this.status = status;
    this.code = (body && body.code) || (status === 0 ? 'NETWORK' : `HTTP_${status}`);
    this.details = body && body.details;
  }
}

/** @type {() => void} */
let unauthorized = () => undefined;
/**
 * Called when a request made with the stored key is refused (401): the key was revoked or changed.
 * @param {() => void} handler
 */
export function onUnauthorized(handler) {
  unauthorized = handler;
}

export const storedKey = () => sessionStorage.getItem(KEY_STORAGE);
export const storeKey = (/** @type {string} */ key) => sessionStorage.setItem(KEY_STORAGE, key);
export const forgetKey = () => sessionStorage.removeItem(KEY_STORAGE);

/**
 * One call of the admin API; the answer's JSON as the caller expects it (the API's own contract).
 * @template [T=unknown]
 * @param {'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'} method
 * @param {string} path
 * @param {unknown} [body]
 * @param {string | null} [key]
 * @returns {Promise<T>}
 */
export async function api(method, path, body, key = storedKey()) {
  let response;
  try {
    response = await fetch(`/api/v1${path}`, {
      method,
      headers: {
        authorization: `Bearer ${key}`,
        accept: 'application/json',
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
      credentials: 'same-origin',
      cache: 'no-store',
    });
  } catch {
    throw new ApiError(0, {
      message: 'The connector service did not answer. Check your network connection and try again.',
    });
  }
  const text = await response.text();
  let data = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    data = null;
  }
  if (response.status === 401 && key === storedKey()) unauthorized();
  if (!response.ok) throw new ApiError(response.status, data);
  return data;
}
