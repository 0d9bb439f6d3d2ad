/** One answer of the registry's admin API, read once: the raw text and, when it is JSON, its body. */
export interface AdminAnswer {
  status: number;
  body: Record<string, unknown>;
  headers: Headers;
  text: string;
}

export interface AdminRequest {
  /** The bearer key; `null` sends none. Defaults to the client's key. */
  key?: string | null;
  body?: unknown;
  /** Sent as the JSON body verbatim (malformed JSON on purpose). */
  raw?: string;
}

/**
 * A client of connector-registry's admin API as the e2e suites call it. `baseUrl` is read per call: suites
 * start the registry in `beforeAll`, after they build the client. `seen` receives every response text.
 */
export function adminApi(options: {
  baseUrl: () => string;
  key: string;
  seen?: (text: string) => void;
}): (method: string, path: string, request?: AdminRequest) => Promise<AdminAnswer> {
  return async (method, path, request = {}) => {
    const key = request.key === undefined ? options.key : request.key;
    const hasBody = request.body !== undefined || request.raw !== undefined;
    const response = await fetch(`${options.baseUrl()}${path}`, {
      method,
      redirect: 'manual',
      headers: {
        ...(key ? { authorization: `Bearer ${key}` } : {}),
        ...(hasBody ? { 'content-type': 'application/json' } : {}),
      },
      body: request.raw ?? (request.body === undefined ? undefined : JSON.stringify(request.body)),
    });
    const text = await response.text();
    options.seen?.(text);
    let body: Record<string, unknown> = {};
    try {
      body = text ? (JSON.parse(text) as Record<string, unknown>) : {};
    } catch {
      // An HTML page (the admin page, the OAuth callback): `text` has it.
    }
    return { status: response.status, body, headers: response.headers, text };
  };
}
