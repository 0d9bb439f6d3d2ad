// @ts-check
// One connector: its name, type and status, a confirmation carried from the step before, and its tabs.
import { useCallback, useEffect, useState } from 'preact/hooks';
import { api } from './api.js';
import { MappingTab } from './mapping-tab.js';
import { OverviewTab } from './overview-tab.js';
import { SettingsTab } from './settings-tab.js';
import { connectorPath, view, Link, PageTitle, Problem, StatusBadge, typeLabel, useApp } from './ui.js';

/** @typedef {import('./api.js').ApiError} ApiError */

/** @typedef {import('./admin-api').ConnectorResponse} Connector */
/**
 * What a tab is given: the connector, a way to load it again, and what the page shows above the tabs.
 * @typedef {{ connector: Connector, reload: () => Promise<Connector | null>,
 *   onAuthorized: (connector: Connector) => void, clearConfirmation: () => void }} TabProps
 */

/**
 * The tabs, in order: the first is the connector's own address. A new tab is one more entry here, its
 * component in a file of its own (app.js routes `/connectors/<id>/<key>` to it).
 * @type {Array<{ key: string, label: string, suffix: string, render: (props: TabProps) => unknown }>}
 */
export const TABS = [
  { key: 'overview', label: 'Overview', suffix: '', render: (props) => view`<${OverviewTab} ...${props} />` },
  {
    key: 'mapping',
    label: 'Mapping',
    suffix: '/mapping',
    render: ({ connector }) => view`<${MappingTab} connector=${connector} />`,
  },
  {
    key: 'settings',
    label: 'Settings',
    suffix: '/settings',
    render: ({ connector, reload }) => view`<${SettingsTab} connector=${connector} reload=${reload} />`,
  },
];

/** @param {{ id: string, tab: string }} props */
export function ConnectorPage({ id, tab }) {
  const { flash, setFlash } = useApp();
  const [connector, setConnector] = useState(/** @type {Connector | null} */ (null));
  const [error, setError] = useState(/** @type {ApiError | null} */ (null));
  const [confirmation, setConfirmation] = useState(flash);
  const load = useCallback(
    /** @returns {Promise<Connector | null>} */
    () =>
      api('GET', connectorPath(id))
        .then((body) => {
          const c = /** @type {Connector} */ (body);
          setConnector(c);
          return c;
        })
        .catch((/** @type {ApiError} */ failure) => {
          setError(failure);
          return null;
        }),
    [id],
  );

  useEffect(() => {
    setFlash(null);
    // Back from the ATS's login in this same window (no popup): confirm once the connector says so.
    const params = new URLSearchParams(location.search);
    void load().then((c) => {
      if (params.get('authorized') === '1') {
        history.replaceState(null, '', location.pathname);
        if (c && c.status === 'connected') onAuthorized(c);
      }
    });
  }, [id]);

  const onAuthorized = (/** @type {Connector} */ c) => {
    const text = `Connection successful: “${c.name}” is connected to ${typeLabel(c.type)}.`;
    setConfirmation({ kind: 'authorized', text });
  };

  if (error) {
    return view`<main id="main"><p class="crumbs"><${Link} to="/">Connectors<//></p>
      <${PageTitle}>${error.status === 404 ? 'Connector not found' : 'Could not load the connector'}<//>
      <${Problem} title=${error.status === 404 ? 'There is no such connector in this account; it may have been deleted.' : 'The connector could not be loaded'} error=${error.status === 404 ? null : error} />
      <p><${Link} to="/">Back to the connectors<//></p></main>`;
  }
  if (!connector) return view`<main id="main"><p role="status">Loading the connector…</p></main>`;

  return view`<main id="main">
    <p class="crumbs"><${Link} to="/">Connectors<//> › ${connector.name}</p>
    <div class="page-head">
      <${PageTitle}>${connector.name}<//>
      <span class="type">${typeLabel(connector.type)}</span>
      <${StatusBadge} status=${connector.status} />
    </div>
    ${
      confirmation
        ? view`<div class="success" role="status">
          <p class="problem-title">${confirmation.text}</p>
          ${
            confirmation.kind === 'created' || confirmation.kind === 'authorized'
              ? view`<p>Next: check how its jobs become vacancies in the <${Link} to=${connectorPath(id, '/mapping')}>Mapping<//> tab,
                or choose <strong>Run</strong> to fetch the live vacancies now.</p>`
              : null
          }
        </div>`
        : null
    }
    <nav class="tabs" aria-label="Connector">
      ${TABS.map(
        ({ key, label, suffix }) =>
          view`<${Link} to=${connectorPath(id, suffix)} aria-current=${tab === key ? 'page' : undefined}>${label}<//>`,
      )}
    </nav>
    ${(TABS.find((t) => t.key === tab) ?? TABS[0]).render({
      connector,
      reload: load,
      onAuthorized,
      clearConfirmation: () => setConfirmation(null),
    })}
  </main>`;
}
