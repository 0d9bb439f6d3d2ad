// @ts-check
// The "+" set-up flows: choose the ATS, then connect ATS-A (test, then save) or ATS-B (save, then authorize).
import { useState } from 'preact/hooks';
import { api } from './api.js';
import { setupProblem } from './setup-problem.js';
import { Field, view, Link, PageTitle, Problem, useApp, valueOf, checkedOf } from './ui.js';

/** @typedef {import('./api.js').ApiError} ApiError */

/** @typedef {import('./admin-api').ConnectorResponse} Connector */
/** @typedef {import('./ui.js').FieldInputProps} FieldInputProps */
/** @typedef {{ baseUrl: string, clientId: string, clientSecret: string }} AtsAConfig */
/** @typedef {{ code?: string, message?: string }} SetupError */
/** @typedef {{ ok: boolean, error?: SetupError }} TestResult */
/** @typedef {{ error: SetupError, fields: string[] }} SetupFailure */

export function ChooseType() {
  const { navigate } = useApp();
  const [type, setType] = useState('ats-a');
  return view`<main id="main" class="narrow">
    <p class="crumbs"><${Link} to="/">Connectors<//> › Add a connector</p>
    <${PageTitle}>Add a connector<//>
    <form class="card" onSubmit=${(/** @type {Event} */ e) => {
      e.preventDefault();
      navigate(`/connectors/new/${type}`);
    }}>
      <fieldset>
        <legend>Which ATS do you use?</legend>
        ${[
          ['ats-a', 'ATS-A', 'Connects with an API key: base address, client ID and client secret.'],
          ['ats-b', 'ATS-B', 'Connects through the ATS-B login (OAuth): you sign in to ATS-B once.'],
        ].map(
          ([value, label, hint]) => view`<div class="choice">
            <input type="radio" id=${`type-${value}`} name="type" value=${value} checked=${type === value}
              onChange=${() => setType(value)} aria-describedby=${`type-${value}-hint`} />
            <label for=${`type-${value}`}>${label}</label>
            <p class="hint" id=${`type-${value}-hint`}>${hint}</p>
          </div>`,
        )}
      </fieldset>
      <div class="actions">
        <button type="submit" class="primary">Next</button>
        <${Link} to="/">Cancel<//>
      </div>
    </form>
  </main>`;
}

export function NewAtsA() {
  const { navigate, setFlash } = useApp();
  const [values, setValues] = useState({ name: 'ATS-A', baseUrl: '', clientId: '', clientSecret: '' });
  const [busy, setBusy] = useState(/** @type {'test' | 'save' | null} */ (null));
  // The last test: its answer and the config it tested.
  const [tested, setTested] = useState(/** @type {(TestResult & { config: AtsAConfig }) | null} */ (null));
  const [problem, setProblem] = useState(/** @type {SetupFailure | null} */ (null));
  const set = (/** @type {keyof typeof values} */ field) => (/** @type {Event} */ event) => {
    setValues({ ...values, [field]: valueOf(event) });
  };
  /** @type {AtsAConfig} */
  const config = {
    baseUrl: values.baseUrl.trim(),
    clientId: values.clientId.trim(),
    clientSecret: values.clientSecret,
  };
  const testedOk = tested && tested.ok && JSON.stringify(tested.config) === JSON.stringify(config);
  const missing = /** @type {Array<keyof AtsAConfig>} */ (['baseUrl', 'clientId', 'clientSecret']).filter(
    (f) => !config[f],
  );
  const apiSuffix = /\/api\/?$/i.test(config.baseUrl);

  const test = async () => {
    setProblem(null);
    setTested(null);
    if (missing.length)
      return setProblem({
        error: {
          code: 'VALIDATION_FAILED',
          message: 'Fill in the base API URL, client ID and client secret, then test again.',
        },
        fields: missing,
      });
    // The form's own status region below says "Testing…" and the outcome (announced once, not twice).
    setBusy('test');
    try {
      /** @type {TestResult} */
      const result = await api('POST', '/connectors/test', { type: 'ats-a', config });
      setTested({ ...result, config });
      if (result.ok) {
        setTimeout(() => document.getElementById('save-connector')?.focus(), 0);
      } else if (result.error) setProblem({ error: result.error, fields: setupProblem(result.error).fields });
    } catch (caught) {
      const failure = /** @type {ApiError} */ (caught);
      setProblem({ error: failure, fields: setupProblem(failure).fields });
    } finally {
      setBusy(null);
    }
  };
  const save = async () => {
    setProblem(null);
    if (missing.length || !values.name.trim()) {
      return setProblem({
        error: { code: 'VALIDATION_FAILED', message: 'Fill in every field, then save.' },
        fields: missing,
      });
    }
    setBusy('save');
    try {
      /** @type {Connector} */
      const connector = await api('POST', '/connectors', { type: 'ats-a', name: values.name.trim(), config });
      setFlash({
        kind: 'created',
        text: `Connection successful: “${connector.name}” is connected to ATS-A.`,
      });
      navigate(`/connectors/${connector.id}`);
    } catch (caught) {
      const failure = /** @type {ApiError} */ (caught);
      setTested(null);
      setProblem({ error: failure, fields: setupProblem(failure).fields });
    } finally {
      setBusy(null);
    }
  };
  const onSubmit = (/** @type {SubmitEvent} */ event) => {
    event.preventDefault();
    const intent = event.submitter && /** @type {HTMLButtonElement} */ (event.submitter).value;
    return intent === 'save' ? save() : test();
  };
  const invalid = (/** @type {string} */ field) => Boolean(problem && problem.fields.includes(field));
  const info = problem ? setupProblem(problem.error) : null;

  return view`<main id="main" class="narrow">
    <p class="crumbs"><${Link} to="/">Connectors<//> › <${Link} to="/connectors/new">Add a connector<//> › ATS-A</p>
    <${PageTitle}>Connect ATS-A<//>
    <p>Enter the API details from your ATS-A account, test the connection, then save.</p>
    <form class="card" onSubmit=${onSubmit} novalidate>
      <${Field} id="name" label="Connector name" hint="How this connector is called here.">
        ${(/** @type {FieldInputProps} */ p) => view`<input ...${p} name="name" type="text" value=${values.name} onInput=${set('name')} required />`}
      <//>
      <${Field} id="baseUrl" label="Base API URL" invalid=${invalid('baseUrl')} problemId="setup-problem"
        hint="Your system's address without “/api”, for example https://acme.ats-a.example">
        ${(
          /** @type {FieldInputProps} */ p,
        ) => view`<input ...${p} name="baseUrl" type="url" inputmode="url" autocomplete="url" spellcheck="false"
          placeholder="https://acme.ats-a.example" value=${values.baseUrl} onInput=${set('baseUrl')} required />`}
      <//>
      ${apiSuffix ? view`<p class="field-warning" role="status">Leave out “/api” at the end: enter only your system's address.</p>` : null}
      <${Field} id="clientId" label="Client ID" invalid=${invalid('clientId')} problemId="setup-problem"
        hint="In ATS-A: Settings → API keys.">
        ${(
          /** @type {FieldInputProps} */ p,
        ) => view`<input ...${p} name="clientId" type="text" autocomplete="off" spellcheck="false"
          value=${values.clientId} onInput=${set('clientId')} required />`}
      <//>
      <${Field} id="clientSecret" label="Client secret" invalid=${invalid('clientSecret')} problemId="setup-problem"
        hint="Shown once when the API key is created in ATS-A. It is stored encrypted and never shown again.">
        ${(
          /** @type {FieldInputProps} */ p,
        ) => view`<input ...${p} name="clientSecret" type="password" autocomplete="new-password"
          value=${values.clientSecret} onInput=${set('clientSecret')} required />`}
      <//>
      <div aria-live="polite">
        ${info && problem ? view`<${Problem} id="setup-problem" title=${info.title} error=${problem.error} advice=${info.advice} />` : null}
        ${testedOk ? view`<p class="success" role="status">The connection works: ATS-A accepted these credentials. Choose Save to add the connector.</p>` : null}
        ${busy === 'test' ? view`<p role="status">Testing the connection…</p>` : null}
        ${busy === 'save' ? view`<p role="status">Saving…</p>` : null}
      </div>
      <div class="actions">
        <button type="submit" name="intent" value="test" class=${testedOk ? '' : 'primary'} disabled=${Boolean(busy)}>Test connection</button>
        <button type="submit" name="intent" value="save" id="save-connector" class=${testedOk ? 'primary' : ''} disabled=${Boolean(busy)}>Save</button>
        <${Link} to="/">Cancel<//>
      </div>
    </form>
  </main>`;
}

export function NewAtsB() {
  const { navigate, setFlash } = useApp();
  const [name, setName] = useState('ATS-B');
  const [routine, setRoutine] = useState('api-oauth');
  const [sendSmartCv, setSendSmartCv] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState(/** @type {ApiError | null} */ (null));
  const submit = async (/** @type {Event} */ event) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      /** @type {Connector} */
      const connector = await api('POST', '/connectors', {
        type: 'ats-b',
        name: name.trim(),
        config: { routine, sendSmartCv },
      });
      setFlash({
        kind: 'saved-ats-b',
        text: `Saved “${connector.name}”. Now authorize access: log in to ATS-B.`,
      });
      navigate(`/connectors/${connector.id}`);
    } catch (caught) {
      const failure = /** @type {ApiError} */ (caught);
      setError(failure);
    } finally {
      setBusy(false);
    }
  };
  return view`<main id="main" class="narrow">
    <p class="crumbs"><${Link} to="/">Connectors<//> › <${Link} to="/connectors/new">Add a connector<//> › ATS-B</p>
    <${PageTitle}>Connect ATS-B<//>
    <p>Choose how to connect, save, then authorize access by logging in to ATS-B.</p>
    <form class="card" onSubmit=${submit} novalidate>
      <${Field} id="name" label="Connector name" hint="How this connector is called here.">
        ${(/** @type {FieldInputProps} */ p) => view`<input ...${p} name="name" type="text" value=${name} onInput=${(/** @type {Event} */ e) => setName(valueOf(e))} required />`}
      <//>
      <fieldset>
        <legend>Routine</legend>
        <div class="choice">
          <input type="radio" id="routine-api-oauth" name="routine" value="api-oauth" checked=${routine === 'api-oauth'}
            onChange=${() => setRoutine('api-oauth')} aria-describedby="routine-api-oauth-hint" />
          <label for="routine-api-oauth">API (OAuth)</label>
          <p class="hint" id="routine-api-oauth-hint">You log in to ATS-B once; the connector then uses its REST API.</p>
        </div>
      </fieldset>
      <div class="choice">
        <input type="checkbox" id="sendSmartCv" name="sendSmartCv" checked=${sendSmartCv}
          onChange=${(/** @type {Event} */ e) => setSendSmartCv(checkedOf(e))} aria-describedby="sendSmartCv-hint" />
        <label for="sendSmartCv">Send Smart CV</label>
        <p class="hint" id="sendSmartCv-hint">Also upload each candidate's Smart CV to ATS-B, next to their CV.</p>
      </div>
      ${error ? view`<${Problem} title="Could not save the connector" error=${error} />` : null}
      <div class="actions">
        <button type="submit" class="primary" disabled=${busy || !name.trim()}>${busy ? 'Saving…' : 'Save'}</button>
        <${Link} to="/">Cancel<//>
      </div>
    </form>
  </main>`;
}
