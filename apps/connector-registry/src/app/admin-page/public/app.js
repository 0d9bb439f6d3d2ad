// The connector admin page: sign-in with the account's API key, then the Connectors section and the set-up flows.
import { render } from 'preact';
import { useCallback, useEffect, useMemo, useState } from 'preact/hooks';
import { api, BASE, forgetKey, onUnauthorized, storedKey, storeKey } from './api.js';
import { AUTHORIZED_MESSAGE } from './authorize.js';
import { ConnectorPage } from './connector-page.js';
import { ChooseType, ConnectorsList, NewAtsA, NewAtsB } from './connectors.js';
import { AppContext, view, Link, PageTitle } from './ui.js';

const currentPath = () => location.pathname.slice(BASE.length).replace(/\/+$/, '') || '/';

function route(path) {
  if (path === '/') return { screen: 'list' };
  if (path === '/connectors/new') return { screen: 'new' };
  if (path === '/connectors/new/ats-a') return { screen: 'new-ats-a' };
  if (path === '/connectors/new/ats-b') return { screen: 'new-ats-b' };
  const match = /^\/connectors\/([^/]+)(?:\/(mapping|settings))?$/.exec(path);
  if (match) return { screen: 'connector', id: decodeURIComponent(match[1]), tab: match[2] || 'overview' };
  return { screen: 'not-found' };
}

function SignIn({ onSignedIn, notice }) {
  const [key, setKey] = useState('');
  const [error, setError] = useState(null);
  const [busy, setBusy] = useState(false);
  const submit = async (event) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await api('GET', '/connectors', undefined, key.trim());
      storeKey(key.trim());
      onSignedIn();
    } catch (failure) {
      setError(
        failure.status === 401
          ? {
              title: 'That API key was not accepted',
              message:
                'Check that you copied the whole key. Admin API keys are issued per platform account by its owner.',
            }
          : { title: 'Could not sign in', message: failure.message },
      );
    } finally {
      setBusy(false);
    }
  };
  return view`<main id="main" class="narrow">
    <${PageTitle}>Sign in<//>
    <p>Sign in with your platform account's admin API key to set up and watch its ATS connectors.</p>
    ${notice ? view`<p class="notice" role="status">${notice}</p>` : null}
    <form onSubmit=${submit} class="card" novalidate>
      <div class=${`field${error ? ' field-invalid' : ''}`}>
        <label for="api-key">Admin API key</label>
        <p class="hint" id="api-key-hint">Kept in this browser tab only, until you sign out or close the tab.</p>
        <input id="api-key" name="apiKey" type="password" autocomplete="off" required spellcheck="false"
          value=${key} onInput=${(e) => setKey(e.currentTarget.value)}
          aria-describedby=${error ? 'api-key-hint sign-in-problem' : 'api-key-hint'}
          aria-invalid=${error ? 'true' : undefined} />
      </div>
      ${
        error
          ? view`<div class="problem" role="alert" id="sign-in-problem">
            <p class="problem-title">${error.title}</p><p>${error.message}</p></div>`
          : null
      }
      <div class="actions"><button type="submit" class="primary" disabled=${busy || !key.trim()}>
        ${busy ? 'Signing in…' : 'Sign in'}</button></div>
    </form>
  </main>`;
}

function App() {
  const [signedIn, setSignedIn] = useState(Boolean(storedKey()));
  const [path, setPath] = useState(currentPath());
  const [announcement, setAnnouncement] = useState('');
  const [notice, setNotice] = useState(null);
  // A confirmation carried to the next screen (e.g. "Connected to ATS-A" after Save); shown once.
  const [flash, setFlash] = useState(null);

  const navigate = useCallback((to, options = {}) => {
    history[options.replace ? 'replaceState' : 'pushState'](null, '', BASE + (to === '/' ? '' : to));
    setPath(currentPath());
    window.scrollTo(0, 0);
  }, []);
  const announce = useCallback((text) => {
    // Cleared first so that the same words twice are read twice.
    setAnnouncement('');
    setTimeout(() => setAnnouncement(text), 50);
  }, []);
  const signOut = useCallback((message) => {
    forgetKey();
    setSignedIn(false);
    setNotice(message || null);
    announce(message || 'Signed out.');
  }, []);

  useEffect(() => {
    const onPop = () => setPath(currentPath());
    window.addEventListener('popstate', onPop);
    onUnauthorized(() => signOut('Your API key is no longer accepted. Sign in again with a valid key.'));
    return () => window.removeEventListener('popstate', onPop);
  }, []);

  const current = route(path);
  useEffect(() => {
    const titles = {
      list: 'Connectors',
      new: 'Add a connector',
      'new-ats-a': 'Connect ATS-A',
      'new-ats-b': 'Connect ATS-B',
      connector: 'Connector',
      'not-found': 'Not found',
    };
    document.title = `${signedIn ? titles[current.screen] : 'Sign in'} · ATS connector admin`;
  }, [path, signedIn]);

  const context = useMemo(
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
  } else if (current.screen === 'list') screen = view`<${ConnectorsList} />`;
  else if (current.screen === 'new') screen = view`<${ChooseType} />`;
  else if (current.screen === 'new-ats-a') screen = view`<${NewAtsA} />`;
  else if (current.screen === 'new-ats-b') screen = view`<${NewAtsB} />`;
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

/** In the ATS-B login popup, the callback lands here: tell the page that opened it, then close. */
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
    view`<main id="main" class="narrow"><h1>Connected to ATS-B</h1>
      <p role="status">The login worked. This window closes by itself; if it does not, close it.</p></main>`,
    document.getElementById('app'),
  );
  window.close();
  return true;
}

if (!finishPopupLogin()) render(view`<${App} />`, document.getElementById('app'));
