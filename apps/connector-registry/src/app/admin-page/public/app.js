// @ts-check
// The connector admin page: sign-in with the account's API key, then the Connectors section and the set-up flows.
import { render } from 'preact';
import { useCallback, useEffect, useMemo, useState } from 'preact/hooks';
import { BASE, forgetKey, onUnauthorized, storedKey } from './api.js';
import { AUTHORIZED_MESSAGE } from './authorize.js';
import { ConnectorPage, TABS } from './connector-page.js';
import { ConnectorsList } from './connectors.js';
import { api } from './api.js';
import { ChooseType, NewConnector } from './new-connector.js';
import { SignIn } from './sign-in.js';
import {
  AppContext,
  connectorType,
  Link,
  PageTitle,
  Problem,
  setConnectorTypes,
  typeLabel,
  view,
} from './ui.js';

const appRoot = () => /** @type {HTMLElement} */ (document.getElementById('app'));
const currentPath = () => location.pathname.slice(BASE.length).replace(/\/+$/, '') || '/';

/**
 * The screen a path shows.
 * @param {string} path
 * @returns {{ screen: 'list' | 'new' | 'not-found' } | { screen: 'new-type', type: string }
 *   | { screen: 'connector', id: string, tab: string }}
 */
function route(path) {
  if (path === '/') return { screen: 'list' };
  if (path === '/connectors/new') return { screen: 'new' };
  const newType = /^\/connectors\/new\/([^/]+)$/.exec(path);
  if (newType) return { screen: 'new-type', type: decodeURIComponent(newType[1]) };
  const match = /^\/connectors\/([^/]+)(?:(\/[^/]+))?$/.exec(path);
  const tab = match && TABS.find((t) => t.suffix === (match[2] || ''));
  if (match && tab) return { screen: 'connector', id: decodeURIComponent(match[1]), tab: tab.key };
  return { screen: 'not-found' };
}

function App() {
  const [signedIn, setSignedIn] = useState(Boolean(storedKey()));
  const [path, setPath] = useState(currentPath());
  const [announcement, setAnnouncement] = useState('');
  const [notice, setNotice] = useState(/** @type {string | null} */ (null));
  // A confirmation carried to the next screen (e.g. "… is connected" after Save); shown once.
  const [flash, setFlash] = useState(/** @type {import('./admin-page').Flash | null} */ (null));
  // The ATSs a connector can be made for (labels, set-up forms), loaded once signed in: null while loading.
  const [types, setTypes] = useState(
    /** @type {import('./admin-api').ConnectorTypeResponse[] | null} */ (null),
  );
  const [typesError, setTypesError] = useState(/** @type {import('./api.js').ApiError | null} */ (null));

  const navigate = useCallback(
    (/** @type {string} */ to, /** @type {{ replace?: boolean }} */ options = {}) => {
      history[options.replace ? 'replaceState' : 'pushState'](null, '', BASE + (to === '/' ? '' : to));
      setPath(currentPath());
      window.scrollTo(0, 0);
    },
    [],
  );
  const announce = useCallback((/** @type {string} */ text) => {
    // Cleared first so that the same words twice are read twice.
    setAnnouncement('');
    setTimeout(() => setAnnouncement(text), 50);
  }, []);
  const signOut = useCallback(
    /** @param {string} [message] */
    (message) => {
      forgetKey();
      setSignedIn(false);
      setNotice(message || null);
      announce(message || 'Signed out.');
    },
    [],
  );

  useEffect(() => {
    const onPop = () => setPath(currentPath());
    window.addEventListener('popstate', onPop);
    onUnauthorized(() => signOut('Your API key is no longer accepted. Sign in again with a valid key.'));
    return () => window.removeEventListener('popstate', onPop);
  }, []);

  useEffect(() => {
    if (!signedIn || types) return;
    setTypesError(null);
    api('GET', '/connector-types')
      .then((body) => {
        const loaded = /** @type {{ types: import('./admin-api').ConnectorTypeResponse[] }} */ (body).types;
        setConnectorTypes(loaded);
        setTypes(loaded);
        setTypesError(null);
      })
      .catch((/** @type {import('./api.js').ApiError} */ failure) => setTypesError(failure));
  }, [signedIn, types]);

  const current = route(path);
  useEffect(() => {
    /** @type {Record<string, string>} */
    const titles = {
      list: 'Connectors',
      new: 'Add a connector',
      'new-type': `Connect ${current.screen === 'new-type' ? typeLabel(current.type) : ''}`,
      connector: 'Connector',
      'not-found': 'Not found',
    };
    document.title = `${signedIn ? titles[current.screen] : 'Sign in'} · ATS connector admin`;
  }, [path, signedIn, types]);

  const context = useMemo(
    /** @returns {import('./admin-page').AppContextValue} */
    () => ({ navigate, announce, flash, setFlash, signOut }),
    [navigate, announce, flash, signOut],
  );

  let screen;
  if (!signedIn) {
    screen = view`<${SignIn} notice=${notice} onSignedIn=${() => {
      setSignedIn(true);
      setNotice(null);
      announce('Signed in.');
    }} />`;
  } else if (!types) {
    screen = typesError
      ? view`<main id="main"><${Problem} title="Could not load the connector types" error=${typesError} /></main>`
      : view`<main id="main"><p role="status">Loading…</p></main>`;
  } else if (current.screen === 'list') screen = view`<${ConnectorsList} />`;
  else if (current.screen === 'new') screen = view`<${ChooseType} />`;
  else if (current.screen === 'new-type' && connectorType(current.type))
    screen = view`<${NewConnector} key=${current.type} type=${connectorType(current.type)} />`;
  else if (current.screen === 'connector')
    screen = view`<${ConnectorPage} key=${current.id} id=${current.id} tab=${current.tab} />`;
  else
    screen = view`<main id="main"><${PageTitle}>Page not found<//>
      <p>There is nothing at this address. <${Link} to="/">Go to the connectors<//>.</p></main>`;

  return view`<${AppContext.Provider} value=${context}>
    <a class="skip-link" href="#main">Skip to content</a>
    <header class="top">
      <span class="brand">ATS connector admin</span>
      ${
        signedIn
          ? view`<nav aria-label="Sections"><${Link} to="/" aria-current=${current.screen === 'list' ? 'page' : undefined}>Connectors<//></nav>
          <button type="button" class="quiet" onClick=${() => signOut()}>Sign out</button>`
          : null
      }
    </header>
    ${screen}
    <div class="visually-hidden" role="status" aria-live="polite" aria-atomic="true">${announcement}</div>
  <//>`;
}

/** In the ATS's login popup (interactive login), the callback lands here: tell the page that opened it, then close. */
function finishPopupLogin() {
  const params = new URLSearchParams(location.search);
  if (params.get('authorized') !== '1' || !window.opener || window.opener === window) return false;
  const match = /^\/connectors\/([^/]+)/.exec(currentPath());
  try {
    window.opener.postMessage(
      { type: AUTHORIZED_MESSAGE, connectorId: match ? decodeURIComponent(match[1]) : null },
      location.origin,
    );
  } catch {
    return false;
  }
  render(
    view`<main id="main" class="narrow"><h1>Access granted</h1>
      <p role="status">The login worked. This window closes by itself; if it does not, close it.</p></main>`,
    appRoot(),
  );
  window.close();
  return true;
}

if (!finishPopupLogin()) render(view`<${App} />`, appRoot());
