// @ts-check
// The connector's Settings tab: its name and options, ATS-A credentials, and disable, enable or remove.
import { useState } from 'preact/hooks';
import { api } from './api.js';
import { setupProblem } from './setup-problem.js';
import { checkedOf, connectorPath, connectorType, Field, Problem, useApp, valueOf, view } from './ui.js';

/** @typedef {import('./api.js').ApiError} ApiError */

/** @typedef {import('./admin-api').ConnectorResponse} Connector */
/** @typedef {import('./ui.js').FieldInputProps} FieldInputProps */
/**
 * One PATCH of the connector shared by the tab's sections: which section failed (`where`) and what was saved.
 * @typedef {{ patch: (body: Record<string, unknown>, what: string) => Promise<boolean>, busy: boolean,
 *   setBusy: (busy: boolean) => void, problem: { error: ApiError, where: string } | null,
 *   setProblem: (problem: { error: ApiError, where: string } | null) => void }} Patching
 */

/** @param {{ connector: Connector, reload: () => Promise<Connector | null> }} props */
export function SettingsTab({ connector, reload }) {
  const [problem, setProblem] = useState(/** @type {Patching['problem']} */ (null));
  const [saved, setSaved] = useState(/** @type {string | null} */ (null));
  const [busy, setBusy] = useState(false);

  /** @type {Patching['patch']} */
  const patch = async (body, what) => {
    setProblem(null);
    setSaved(null);
    setBusy(true);
    try {
      await api('PATCH', connectorPath(connector.id), body);
      await reload();
      setSaved(what);
      return true;
    } catch (caught) {
      setProblem({ error: /** @type {ApiError} */ (caught), where: Object.keys(body)[0] });
      return false;
    } finally {
      setBusy(false);
    }
  };
  /** @type {Patching} */
  const patching = { patch, busy, setBusy, problem, setProblem };

  return view`
    ${saved ? view`<p class="success" role="status">${saved}</p>` : null}
    <${GeneralSection} connector=${connector} patching=${patching} />
    ${connector.type === 'ats-a' ? view`<${CredentialsSection} connector=${connector} patching=${patching} />` : null}
    <${StateSection} connector=${connector} patching=${patching} />`;
}

/**
 * The problem of one section, if the last change it made failed.
 * @param {Patching['problem']} problem
 * @param {string} where
 * @param {string} title
 */
const problemFor = (problem, where, title) =>
  problem && problem.where === where ? view`<${Problem} title=${title} error=${problem.error} />` : null;

/** @param {{ connector: Connector, patching: Patching }} props */
function GeneralSection({ connector, patching }) {
  const [name, setName] = useState(connector.name);
  const [sendSmartCv, setSendSmartCv] = useState(Boolean(connector.options && connector.options.sendSmartCv));
  const submit = (/** @type {Event} */ e) => {
    e.preventDefault();
    /** @type {{ name: string, options?: { sendSmartCv: boolean } }} */
    const body = { name: name.trim() };
    if (connector.type === 'ats-b') body.options = { sendSmartCv };
    void patching.patch(body, 'Settings saved.');
  };
  return view`<section class="card" aria-labelledby="general-title">
      <h2 id="general-title">General</h2>
      <form onSubmit=${submit}>
        <${Field} id="settings-name" label="Connector name">
          ${(/** @type {FieldInputProps} */ p) => view`<input ...${p} type="text" value=${name} onInput=${(/** @type {Event} */ e) => setName(valueOf(e))} required />`}
        <//>
        ${
          connector.type === 'ats-b'
            ? view`<div class="choice">
              <input type="checkbox" id="settings-smart-cv" checked=${sendSmartCv} onChange=${(/** @type {Event} */ e) => setSendSmartCv(checkedOf(e))} />
              <label for="settings-smart-cv">Send Smart CV</label>
            </div>`
            : null
        }
        ${problemFor(patching.problem, 'name', 'The settings were not saved')}
        <div class="actions"><button type="submit" class="primary" disabled=${patching.busy}>Save settings</button></div>
      </form>
    </section>`;
}

/** @type {Array<['baseUrl' | 'clientId' | 'clientSecret', string, string, string]>} */
const CREDENTIAL_FIELDS = [
  ['baseUrl', 'Base API URL', 'url', 'Without “/api”.'],
  ['clientId', 'Client ID', 'text', 'In ATS-A: Settings → API keys.'],
  ['clientSecret', 'Client secret', 'password', 'Required to save any change.'],
];

/** @param {{ connector: Connector, patching: Patching }} props */
function CredentialsSection({ connector, patching }) {
  const [credentials, setCredentials] = useState({
    baseUrl: String(connector.config.baseUrl || ''),
    clientId: String(connector.config.clientId || ''),
    clientSecret: '',
  });
  const { problem } = patching;
  const credentialProblem =
    problem && problem.where === 'config' ? setupProblem(problem.error, connectorType(connector.type)) : null;
  const submit = (/** @type {Event} */ e) => {
    e.preventDefault();
    void patching
      .patch(
        {
          config: {
            ...credentials,
            baseUrl: credentials.baseUrl.trim(),
            clientId: credentials.clientId.trim(),
          },
        },
        'Credentials tested and saved.',
      )
      .then((ok) => ok && setCredentials({ ...credentials, clientSecret: '' }));
  };
  return view`<section class="card" aria-labelledby="credentials-title">
          <h2 id="credentials-title">Credentials</h2>
          <p>Enter the client secret again to change any of them; they are tested with ATS-A before they are saved.</p>
          <form onSubmit=${submit} novalidate>
            ${CREDENTIAL_FIELDS.map(
              ([
                field,
                label,
                type,
                hint,
              ]) => view`<${Field} id=${`settings-${field}`} label=${label} hint=${hint}
                invalid=${Boolean(credentialProblem && credentialProblem.fields.includes(field))} problemId="credentials-problem">
                ${(
                  /** @type {FieldInputProps} */ p,
                ) => view`<input ...${p} type=${type} autocomplete=${type === 'password' ? 'new-password' : 'off'} value=${credentials[field]}
                  onInput=${(/** @type {Event} */ e) => setCredentials({ ...credentials, [field]: valueOf(e) })} />`}
              <//>`,
            )}
            ${credentialProblem && problem ? view`<${Problem} id="credentials-problem" title=${credentialProblem.title} error=${problem.error} advice=${credentialProblem.advice} />` : null}
            <div class="actions"><button type="submit" class="primary" disabled=${patching.busy || !credentials.clientSecret}>Test and save credentials</button></div>
          </form>
        </section>`;
}

/** @param {{ connector: Connector, patching: Patching }} props */
function StateSection({ connector, patching }) {
  const { navigate, setFlash } = useApp();
  const [confirmDelete, setConfirmDelete] = useState(false);
  const disabled = connector.status === 'disabled';
  const remove = async () => {
    patching.setBusy(true);
    try {
      await api('DELETE', connectorPath(connector.id));
      setFlash({ kind: 'deleted', text: `Removed “${connector.name}” and erased its credentials.` });
      navigate('/');
    } catch (caught) {
      patching.setProblem({ error: /** @type {ApiError} */ (caught), where: 'delete' });
      patching.setBusy(false);
    }
  };
  return view`<section class="card" aria-labelledby="state-title">
      <h2 id="state-title">${disabled ? 'Enable' : 'Disable'} or remove</h2>
      <p>${
        disabled
          ? 'This connector is disabled: nothing is synced.'
          : 'Disabling stops every sync for this connector; its settings are kept.'
      }</p>
      ${problemFor(patching.problem, 'status', 'The status was not changed')}
      ${problemFor(patching.problem, 'delete', 'The connector was not removed')}
      <div class="actions">
        <button type="button" disabled=${patching.busy} onClick=${() =>
          patching.patch(
            { status: disabled ? 'connected' : 'disabled' },
            disabled ? 'Connector enabled.' : 'Connector disabled.',
          )}>
          ${disabled ? 'Enable' : 'Disable'}</button>
        ${
          confirmDelete
            ? view`<span role="alert">Remove “${connector.name}” and erase its credentials?</span>
              <button type="button" class="danger" disabled=${patching.busy} onClick=${remove}>Yes, remove it</button>
              <button type="button" onClick=${() => setConfirmDelete(false)}>Keep it</button>`
            : view`<button type="button" class="danger" onClick=${() => setConfirmDelete(true)}>Remove…</button>`
        }
      </div>
    </section>`;
}
