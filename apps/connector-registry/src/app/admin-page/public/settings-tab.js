// @ts-check
// The connector's Settings tab: its name and options, its credentials (when typed here), and disable, enable or
// remove.
import { useState } from 'preact/hooks';
import { api } from './api.js';
import { setupProblem } from './setup-problem.js';
import {
  checkedOf,
  connectorPath,
  connectorType,
  Field,
  lowerFirst,
  Problem,
  typeLabel,
  typesCredentials,
  useApp,
  valueOf,
  view,
} from './ui.js';

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
    ${typesCredentials(connector.type) ? view`<${CredentialsSection} connector=${connector} patching=${patching} />` : null}
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

/**
 * The set-up form's yes/no fields the connector keeps among its options (e.g. sending Smart CVs): changed here.
 * @param {Connector} connector
 */
const optionSwitches = (connector) =>
  (connectorType(connector.type)?.fields || []).filter(
    (f) => f.kind === 'boolean' && connector.options && typeof connector.options[f.name] === 'boolean',
  );

/** @param {{ connector: Connector, patching: Patching }} props */
function GeneralSection({ connector, patching }) {
  const [name, setName] = useState(connector.name);
  const switches = optionSwitches(connector);
  const [options, setOptions] = useState(
    /** @type {Record<string, boolean>} */ (
      Object.fromEntries(switches.map((f) => [f.name, connector.options[f.name] === true]))
    ),
  );
  const submit = (/** @type {Event} */ e) => {
    e.preventDefault();
    /** @type {{ name: string, options?: Record<string, boolean> }} */
    const body = { name: name.trim() };
    if (switches.length) body.options = options;
    void patching.patch(body, 'Settings saved.');
  };
  return view`<section class="card" aria-labelledby="general-title">
      <h2 id="general-title">General</h2>
      <form onSubmit=${submit}>
        <${Field} id="settings-name" label="Connector name">
          ${(/** @type {FieldInputProps} */ p) => view`<input ...${p} type="text" value=${name} onInput=${(/** @type {Event} */ e) => setName(valueOf(e))} required />`}
        <//>
        ${switches.map(
          (f) => view`<div class="choice">
              <input type="checkbox" id=${`settings-${f.name}`} checked=${options[f.name]}
                onChange=${(/** @type {Event} */ e) => setOptions({ ...options, [f.name]: checkedOf(e) })} />
              <label for=${`settings-${f.name}`}>${f.label}</label>
            </div>`,
        )}
        ${problemFor(patching.problem, 'name', 'The settings were not saved')}
        <div class="actions"><button type="submit" class="primary" disabled=${patching.busy}>Save settings</button></div>
      </form>
    </section>`;
}

/**
 * The credentials the set-up form asked (its address, text and secret fields under `config`).
 * @param {Connector} connector
 */
const credentialFields = (connector) =>
  (connectorType(connector.type)?.fields || []).filter(
    (f) => f.in === 'config' && (f.kind === 'url' || f.kind === 'text' || f.kind === 'secret'),
  );

/** @param {import('./admin-api').SetupFieldResponse} field */
const settingsHint = (field) =>
  field.kind === 'secret'
    ? 'Required to save any change.'
    : field.forbiddenSuffix
      ? `Without “${field.forbiddenSuffix}”.`
      : field.help;

/** @param {{ connector: Connector, patching: Patching }} props */
function CredentialsSection({ connector, patching }) {
  const fields = credentialFields(connector);
  const secrets = fields.filter((f) => f.kind === 'secret');
  const [credentials, setCredentials] = useState(
    /** @type {Record<string, string>} */ (
      Object.fromEntries(
        fields.map((f) => [f.name, f.kind === 'secret' ? '' : String(connector.config[f.name] || '')]),
      )
    ),
  );
  const { problem } = patching;
  const credentialProblem =
    problem && problem.where === 'config' ? setupProblem(problem.error, connectorType(connector.type)) : null;
  const blankSecrets = () =>
    setCredentials({ ...credentials, ...Object.fromEntries(secrets.map((f) => [f.name, ''])) });
  const submit = (/** @type {Event} */ e) => {
    e.preventDefault();
    const config = Object.fromEntries(
      fields.map((f) => [f.name, f.kind === 'secret' ? credentials[f.name] : credentials[f.name].trim()]),
    );
    void patching.patch({ config }, 'Credentials tested and saved.').then((ok) => ok && blankSecrets());
  };
  const ats = typeLabel(connector.type);
  const secretNames = secrets.map((f) => lowerFirst(f.label)).join(' and ');
  return view`<section class="card" aria-labelledby="credentials-title">
          <h2 id="credentials-title">Credentials</h2>
          <p>Enter the ${secretNames} again to change any of them; they are tested with ${ats} before they are saved.</p>
          <form onSubmit=${submit} novalidate>
            ${fields.map(
              (
                field,
              ) => view`<${Field} id=${`settings-${field.name}`} label=${field.label} hint=${settingsHint(field)}
                invalid=${Boolean(credentialProblem && credentialProblem.fields.includes(field.name))} problemId="credentials-problem">
                ${(
                  /** @type {FieldInputProps} */ p,
                ) => view`<input ...${p} type=${field.kind === 'secret' ? 'password' : field.kind === 'url' ? 'url' : 'text'}
                  autocomplete=${field.kind === 'secret' ? 'new-password' : 'off'} value=${credentials[field.name]}
                  onInput=${(/** @type {Event} */ e) => setCredentials({ ...credentials, [field.name]: valueOf(e) })} />`}
              <//>`,
            )}
            ${credentialProblem && problem ? view`<${Problem} id="credentials-problem" title=${credentialProblem.title} error=${problem.error} advice=${credentialProblem.advice} />` : null}
            <div class="actions"><button type="submit" class="primary" disabled=${patching.busy || secrets.some((f) => !credentials[f.name])}>Test and save credentials</button></div>
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
