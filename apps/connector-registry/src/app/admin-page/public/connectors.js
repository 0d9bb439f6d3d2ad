// @ts-check
// The Connectors section: the list with each connector's status and the action its row needs.
import { useEffect, useState } from 'preact/hooks';
import { api } from './api.js';
import { useAuthorize } from './authorize.js';
import {
  formatTime,
  view,
  Link,
  logsIn,
  PageTitle,
  Problem,
  runStatusLabel,
  StatusBadge,
  typeLabel,
  typesCredentials,
  useApp,
} from './ui.js';

/** @typedef {import('./api.js').ApiError} ApiError */

/** @typedef {import('./admin-api').ConnectorResponse} Connector */

/** @param {{ connector: Connector, onChanged: () => void }} props */
function RowAction({ connector, onChanged }) {
  const { announce } = useApp();
  const authorize = useAuthorize(connector.id, (ok) => {
    if (ok) announce(`Connected to ${typeLabel(connector.type)}: ${connector.name}.`);
    onChanged();
  });
  if (
    logsIn(connector.type) &&
    (connector.status === 'auth_failed' || connector.status === 'pending_authorization')
  ) {
    const label = connector.status === 'auth_failed' ? 'Re-authorize' : 'Authorize';
    return view`<button type="button" class=${connector.status === 'auth_failed' ? 'primary' : ''}
      onClick=${authorize.start} disabled=${authorize.busy}
      aria-label=${`${label} ${connector.name}`}>${authorize.waiting ? 'Waiting for login…' : label}</button>
      ${authorize.error ? view`<${Problem} title=${`Could not start the ${typeLabel(connector.type)} login`} error=${authorize.error} />` : null}`;
  }
  if (typesCredentials(connector.type) && connector.status === 'auth_failed') {
    return view`<${Link} class="button primary" to=${`/connectors/${connector.id}/settings`}
      aria-label=${`Update the credentials of ${connector.name}`}>Update credentials<//>`;
  }
  return null;
}

export function ConnectorsList() {
  const { navigate, flash, setFlash } = useApp();
  const [connectors, setConnectors] = useState(/** @type {Connector[] | null} */ (null));
  const [error, setError] = useState(/** @type {ApiError | null} */ (null));
  const [message] = useState(flash);
  const load = () =>
    api('GET', '/connectors')
      .then((body) => setConnectors(/** @type {{ connectors: Connector[] }} */ (body).connectors))
      .catch(setError);
  useEffect(() => {
    setFlash(null);
    void load();
  }, []);

  const attention = (connectors || []).filter((c) => c.status === 'auth_failed');
  return view`<main id="main">
    <div class="page-head">
      <${PageTitle}>Connectors<//>
      <button type="button" class="add" aria-label="Add a connector" title="Add a connector"
        onClick=${() => navigate('/connectors/new')}><span aria-hidden="true">+</span></button>
    </div>
    ${message ? view`<p class="success" role="status">${message.text}</p>` : null}
    ${error ? view`<${Problem} title="Could not load the connectors" error=${error} />` : null}
    ${
      attention.length > 0
        ? view`<div class="warning" role="status">
          <p class="problem-title">${attention.length === 1 ? 'One connector has' : `${attention.length} connectors have`} lost access to the ATS</p>
          <p>Nothing syncs until access is restored: ${attention.map((c) => c.name).join(', ')}. Use the button on its row.</p>
        </div>`
        : null
    }
    ${connectors === null && !error ? view`<p role="status">Loading the connectors…</p>` : null}
    ${
      connectors && connectors.length === 0
        ? view`<div class="card empty"><p>No connectors yet.</p>
          <p>Choose <strong>+</strong> (Add a connector) to link your ATS account.</p></div>`
        : null
    }
    ${
      connectors && connectors.length > 0
        ? view`<table class="connectors">
          <caption class="visually-hidden">Your connectors and their status</caption>
          <thead><tr><th scope="col">Name</th><th scope="col">ATS</th><th scope="col">Status</th>
            <th scope="col">Last run</th><th scope="col"><span class="visually-hidden">Action</span></th></tr></thead>
          <tbody>${connectors.map(
            (c) => view`<tr key=${c.id} class=${c.status === 'auth_failed' ? 'row-attention' : ''}>
              <td><${Link} to=${`/connectors/${c.id}`}>${c.name}<//></td>
              <td>${typeLabel(c.type)}</td>
              <td><${StatusBadge} status=${c.status} /></td>
              <td>${c.lastRun ? `${runStatusLabel(c.lastRun.status)} · ${formatTime(c.lastRun.finishedAt || c.lastRun.queuedAt)}` : 'Never run'}</td>
              <td class="row-action"><${RowAction} connector=${c} onChanged=${load} /></td>
            </tr>`,
          )}</tbody>
        </table>`
        : null
    }
  </main>`;
}
