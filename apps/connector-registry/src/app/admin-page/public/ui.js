// Small shared pieces of the admin page: htm bound to Preact, the router, labels and formatting.
import { createContext, h } from 'preact';
import { useContext, useEffect, useRef } from 'preact/hooks';
import htm from 'htm';
import { BASE } from './api.js';

// Named `view`, not `html`: Prettier reformats `html` templates as HTML, and htm drops the whitespace it adds.
export const view = htm.bind(h);

/** What every screen may use: navigate, announce a status line, and a one-time confirmation to show. */
export const AppContext = createContext(null);
export const useApp = () => useContext(AppContext);

export function Link({ to, children, ...rest }) {
  const { navigate } = useApp();
  const onClick = (event) => {
    if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey)
      return;
    event.preventDefault();
    navigate(to);
  };
  return view`<a href=${BASE + to} onClick=${onClick} ...${rest}>${children}</a>`;
}

/** A screen's heading; it takes focus when the screen opens, so keyboard and screen-reader users start there. */
export function PageTitle({ children }) {
  const ref = useRef(null);
  useEffect(() => {
    ref.current && ref.current.focus({ preventScroll: false });
  }, []);
  return view`<h1 tabindex="-1" ref=${ref}>${children}</h1>`;
}

export const ATS_LABELS = { 'ats-a': 'ATS-A', 'ats-b': 'ATS-B' };
export const typeLabel = (type) => ATS_LABELS[type] || type;

const STATUS_LABELS = {
  connected: 'Connected',
  pending_authorization: 'Waiting for authorization',
  auth_failed: 'Authorization lost',
  disabled: 'Disabled',
};
export const statusLabel = (status) => STATUS_LABELS[status] || status;

export function StatusBadge({ status }) {
  return view`<span class=${`badge badge-${status}`}>${statusLabel(status)}</span>`;
}

const RUN_STATUS_LABELS = { queued: 'Queued', running: 'Running', succeeded: 'Succeeded', failed: 'Failed' };
export const runStatusLabel = (status) => RUN_STATUS_LABELS[status] || status;
export const runIsActive = (run) => Boolean(run) && (run.status === 'queued' || run.status === 'running');

export function formatTime(iso) {
  if (!iso) return '—';
  const date = new Date(iso);
  return date.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'medium' });
}

/** An error a person can act on: a title saying what happened, then the service's own explanation. */
export function Problem({ title, error, id, advice }) {
  if (!error && !title) return null;
  return view`<div class="problem" role="alert" id=${id}>
    <p class="problem-title">${title || 'Something went wrong'}</p>
    ${error && error.message ? view`<p>${error.message}</p>` : null}
    ${advice ? view`<p>${advice}</p>` : null}
    ${
      error && error.details && Array.isArray(error.details.errors)
        ? view`<ul>${error.details.errors.map((line) => view`<li>${line}</li>`)}</ul>`
        : null
    }
  </div>`;
}

/** A labelled input with an optional hint and a per-field problem, wired with aria-describedby. */
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
