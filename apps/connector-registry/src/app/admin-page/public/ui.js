// @ts-check
// Small shared pieces of the admin page: htm bound to Preact, the router, labels and formatting.
import { createContext, h } from 'preact';
import { useContext, useEffect, useRef } from 'preact/hooks';
import htm from 'htm';
import { BASE } from './api.js';

/** @typedef {import('preact').ComponentChildren} Children */
/** @typedef {import('./admin-page').AppContextValue} AppContextValue */

// Named `view`, not `html`: Prettier reformats `html` templates as HTML, and htm drops the whitespace it adds.
export const view = htm.bind(h);

/** What every screen may use: navigate, announce a status line, and a one-time confirmation to show. */
export const AppContext = createContext(/** @type {AppContextValue | null} */ (null));
/** @returns {AppContextValue} */
export const useApp = () => {
  const context = useContext(AppContext);
  if (!context) throw new Error('useApp outside the AppContext provider');
  return context;
};

/** @param {{ to: string, children?: Children, [attribute: string]: unknown }} props */
export function Link({ to, children, ...rest }) {
  const { navigate } = useApp();
  /** @param {MouseEvent} event */
  const onClick = (event) => {
    if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey)
      return;
    event.preventDefault();
    navigate(to);
  };
  return view`<a href=${BASE + to} onClick=${onClick} ...${rest}>${children}</a>`;
}

/**
 * A screen's heading; it takes focus when the screen opens, so keyboard and screen-reader users start there.
 * @param {{ children?: Children }} props
 */
export function PageTitle({ children }) {
  const ref = useRef(/** @type {HTMLHeadingElement | null} */ (null));
  useEffect(() => {
    ref.current?.focus({ preventScroll: false });
  }, []);
  return view`<h1 tabindex="-1" ref=${ref}>${children}</h1>`;
}

/** @typedef {import('./admin-api').ConnectorTypeResponse} ConnectorType */

/** The ATSs a connector can be made for, as the admin API's `GET /connector-types` says (app.js loads them). */
let connectorTypes = /** @type {ConnectorType[]} */ ([]);
export const setConnectorTypes = (/** @type {ConnectorType[]} */ types) => {
  connectorTypes = types;
};
export const allConnectorTypes = () => connectorTypes;
export const connectorType = (/** @type {string} */ type) => connectorTypes.find((t) => t.type === type);
export const typeLabel = (/** @type {string} */ type) => connectorType(type)?.label || type;
/** Whether connectors of `type` get their access by a login in the ATS's window (Authorize). */
export const logsIn = (/** @type {string} */ type) => connectorType(type)?.flow === 'interactive-login';
/** Whether connectors of `type` get their access from credentials typed here. */
export const typesCredentials = (/** @type {string} */ type) =>
  connectorType(type)?.flow === 'client-credentials';
/** Whether the ATS of `type` declares a capability (e.g. 'daily-budget'). */
export const supports = (/** @type {string} */ type, /** @type {string} */ capability) =>
  /** @type {string[]} */ (connectorType(type)?.capabilities || []).includes(capability);
/** "Client ID" → "client ID": a label inside a sentence. */
export const lowerFirst = (/** @type {string} */ text) => text.charAt(0).toLowerCase() + text.slice(1);

/** @type {Record<string, string>} */
const STATUS_LABELS = {
  connected: 'Connected',
  pending_authorization: 'Waiting for authorization',
  auth_failed: 'Authorization lost',
  disabled: 'Disabled',
};
const statusLabel = (/** @type {string} */ status) => STATUS_LABELS[status] || status;

/** @param {{ status: string }} props */
export function StatusBadge({ status }) {
  return view`<span class=${`badge badge-${status}`}>${statusLabel(status)}</span>`;
}

/** @type {Record<string, string>} */
const RUN_STATUS_LABELS = { queued: 'Queued', running: 'Running', succeeded: 'Succeeded', failed: 'Failed' };
export const runStatusLabel = (/** @type {string} */ status) => RUN_STATUS_LABELS[status] || status;
export const runIsActive = (/** @type {import('./admin-api').RunResponse | null | undefined} */ run) =>
  Boolean(run) && (run?.status === 'queued' || run?.status === 'running');

/** @param {string | null | undefined} iso */
export function formatTime(iso) {
  if (!iso) return '—';
  const date = new Date(iso);
  return date.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'medium' });
}

/**
 * The value of the input, select or textarea an event came from.
 * @param {Event} event
 */
export const valueOf = (event) =>
  /** @type {HTMLInputElement | HTMLSelectElement} */ (event.currentTarget).value;

/**
 * Whether the checkbox an event came from is checked.
 * @param {Event} event
 */
export const checkedOf = (event) => /** @type {HTMLInputElement} */ (event.currentTarget).checked;

/**
 * An error a person can act on: a title saying what happened, then the service's own explanation.
 * @param {{ title?: string | null, error?: { message?: string, details?: { errors?: unknown } } | null,
 *   id?: string, advice?: string }} props
 */
export function Problem({ title, error, id, advice }) {
  if (!error && !title) return null;
  return view`<div class="problem" role="alert" id=${id}>
    <p class="problem-title">${title || 'Something went wrong'}</p>
    ${error && error.message ? view`<p>${error.message}</p>` : null}
    ${advice ? view`<p>${advice}</p>` : null}
    ${
      error && error.details && Array.isArray(error.details.errors)
        ? view`<ul>${error.details.errors.map((/** @type {string} */ line) => view`<li>${line}</li>`)}</ul>`
        : null
    }
  </div>`;
}

/**
 * The attributes a Field hands its input: its id and the accessibility wiring.
 * @typedef {{ id: string, 'aria-describedby'?: string, 'aria-invalid'?: 'true' }} FieldInputProps
 */

/**
 * A labelled input with an optional hint and a per-field problem, wired with aria-describedby.
 * @param {{ id: string, label: string, hint?: string, invalid?: boolean, problemId?: string,
 *   children: (props: FieldInputProps) => Children }} props
 */
export function Field({ id, label, hint, invalid, problemId, children }) {
  const described = [hint ? `${id}-hint` : null, invalid && problemId ? problemId : null]
    .filter(Boolean)
    .join(' ');
  return view`<div class=${`field${invalid ? ' field-invalid' : ''}`}>
    <label for=${id}>${label}</label>
    ${hint ? view`<p class="hint" id=${`${id}-hint`}>${hint}</p>` : null}
    ${children({ id, 'aria-describedby': described || undefined, 'aria-invalid': invalid ? 'true' : undefined })}
  </div>`;
}

/**
 * A connector's page, or one of its tabs (`rest`: '/mapping', '/runs?limit=10', …), as a path under the API
 * or the page.
 * @param {string} id
 * @param {string} [rest]
 */
export const connectorPath = (id, rest = '') => `/connectors/${encodeURIComponent(id)}${rest}`;
