// @ts-check
// The connector's access to its ATS when it needs the recruiter: Authorize (a login in the ATS's window) or new
// credentials, as the ATS's set-up flow says.
import { useState } from 'preact/hooks';
import { useAuthorize } from './authorize.js';
import { connectorPath, logsIn, view, Link, Problem, typeLabel, typesCredentials, useApp } from './ui.js';

/** @typedef {import('./admin-api').ConnectorResponse} Connector */

/**
 * @param {{ connector: Connector, reload: () => Promise<Connector | null>,
 *   onAuthorized: (connector: Connector) => void }} props
 */
export function AccessCard({ connector, reload, onAuthorized }) {
  const { announce } = useApp();
  const ats = typeLabel(connector.type);
  const [notice, setNotice] = useState(/** @type {string | null} */ (null));
  const authorize = useAuthorize(connector.id, async (ok) => {
    const c = await reload();
    if (ok && c && c.status === 'connected') {
      setNotice(null);
      onAuthorized(c);
    } else if (c && c.status !== 'connected') {
      const text = `The ${ats} login window was closed before access was granted. Choose Authorize to try again.`;
      setNotice(text);
      announce(text);
    }
  });
  if (logsIn(connector.type) && connector.status !== 'connected' && connector.status !== 'disabled') {
    const lost = connector.status === 'auth_failed';
    return view`<section class=${`card ${lost ? 'attention' : ''}`} aria-labelledby="access-title">
      <h2 id="access-title">${lost ? `${ats} access was lost` : `Authorize access to ${ats}`}</h2>
      <p>${
        lost
          ? `${ats} no longer accepts this connector’s authorization (the login was revoked or expired). Nothing syncs until you log in again.`
          : `Log in to ${ats} in the window that opens, with your ${ats} username and password. You come back here when it is done.`
      }</p>
      ${notice ? view`<p class="warning" role="status">${notice}</p>` : null}
      ${authorize.error ? view`<${Problem} title=${`Could not start the ${ats} login`} error=${authorize.error} />` : null}
      <div class="actions">
        <button type="button" class="primary" onClick=${authorize.start} disabled=${authorize.busy}>
          ${lost ? 'Re-authorize' : 'Authorize'}</button>
        ${authorize.waiting ? view`<span role="status">Waiting for the ${ats} login in the other window…</span>` : null}
      </div>
    </section>`;
  }
  if (typesCredentials(connector.type) && connector.status === 'auth_failed') {
    return view`<section class="card attention" aria-labelledby="access-title">
      <h2 id="access-title">${ats} refused the stored credentials</h2>
      <p>The credentials may have been changed or deactivated in ${ats}. The stored credentials are kept and tried again every few minutes: if ${ats} was only unavailable, the connector reconnects by itself. Otherwise nothing syncs until you enter working credentials.</p>
      <div class="actions"><${Link} class="button primary" to=${connectorPath(connector.id, '/settings')}>Update credentials<//></div>
    </section>`;
  }
  return null;
}
