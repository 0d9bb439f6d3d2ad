// @ts-check
// Sign-in with the account's admin API key; the key stays in this tab's sessionStorage.
import { useState } from 'preact/hooks';
import { api, storeKey } from './api.js';
import { PageTitle, valueOf, view } from './ui.js';

/** @typedef {import('./api.js').ApiError} ApiError */

/** @param {{ onSignedIn: () => void, notice: string | null }} props */
export function SignIn({ onSignedIn, notice }) {
  const [key, setKey] = useState('');
  const [error, setError] = useState(/** @type {{ title: string, message: string } | null} */ (null));
  const [busy, setBusy] = useState(false);
  const submit = async (/** @type {Event} */ event) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await api('GET', '/connectors', undefined, key.trim());
      storeKey(key.trim());
      onSignedIn();
    } catch (caught) {
      const failure = /** @type {ApiError} */ (caught);
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
          value=${key} onInput=${(/** @type {Event} */ e) => setKey(valueOf(e))}
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
