// The Connectors section: the list with each connector's status, and the "+" set-up flows for ATS-A and ATS-B.
import { useEffect, useState } from 'preact/hooks';
import { api } from './api.js';
import { useAuthorize } from './authorize.js';
import {
  Field,
  formatTime,
  view,
  Link,
  PageTitle,
  Problem,
  runStatusLabel,
  StatusBadge,
  typeLabel,
  useApp,
} from './ui.js';

/** What a failed ATS-A connection test or save means for the person at the keyboard, and which fields to fix. */
export function setupProblem(error) {
  switch (error.code) {
    case 'AUTH_FAILED':
      return { title: 'ATS-A refused these credentials', fields: ['clientId', 'clientSecret'] };
    case 'UNREACHABLE':
    case 'ATS_UNREACHABLE':
      return {
        title: 'The ATS could not be reached at this address',
        fields: ['baseUrl'],
        advice:
          'Check the base API URL (your ATS-A address, without “/api”) and that ATS-A is up, then test again.',
      };
    case 'INVALID_URL':
      return { title: 'This address cannot be used', fields: ['baseUrl'] };
    case 'DEPENDENCY_UNAVAILABLE':
      return { title: 'The connection could not be checked right now', fields: [] };
    case 'VALIDATION_FAILED':
      return { title: 'Some fields need a value', fields: [] };
    default:
      return { title: 'The connection test failed', fields: [] };
  }
}

function RowAction({ connector, onChanged }) {
  const { announce } = useApp();
  const authorize = useAuthorize(connector.id, (ok) => {
    if (ok) announce(`Connected to ATS-B: ${connector.name}.`);
    onChanged();
  });
  if (
    connector.type === 'ats-b' &&
    (connector.status === 'auth_failed' || connector.status === 'pending_authorization')
  ) {
    const label = connector.status === 'auth_failed' ? 'Re-authorize' : 'Authorize';
    return view`<button type="button" class=${connector.status === 'auth_failed' ? 'primary' : ''}
      onClick=${authorize.start} disabled=${authorize.busy}
      aria-label=${`${label} ${connector.name}`}>${authorize.waiting ? 'Waiting for login…' : label}</button>
      ${authorize.error ? view`<${Problem} title="Could not start the ATS-B login" error=${authorize.error} />` : null}`;
  }
  if (connector.type === 'ats-a' && connector.status === 'auth_failed') {
    return view`<${Link} class="button primary" to=${`/connectors/${connector.id}/settings`}
      aria-label=${`Update the credentials of ${connector.name}`}>Update credentials<//>`;
  }
  return null;
}

export function ConnectorsList() {
  const { navigate, flash, setFlash } = useApp();
  const [connectors, setConnectors] = useState(null);
  const [error, setError] = useState(null);
  const [message] = useState(flash);
  const load = () =>
    api('GET', '/connectors')
      .then((body) => setConnectors(body.connectors))
      .catch(setError);
  useEffect(() => {
    setFlash(null);
    load();
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
          <p>Choose <strong>+</strong> (Add a connector) to link your ATS-A or ATS-B account.</p></div>`
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

export function ChooseType() {
  const { navigate } = useApp();
  const [type, setType] = useState('ats-a');
  return view`<main id="main" class="narrow">
    <p class="crumbs"><${Link} to="/">Connectors<//> › Add a connector</p>
    <${PageTitle}>Add a connector<//>
    <form class="card" onSubmit=${(e) => {
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
  const { navigate, setFlash, announce } = useApp();
  const [values, setValues] = useState({ name: 'ATS-A', baseUrl: '', clientId: '', clientSecret: '' });
  const [busy, setBusy] = useState(null);
  const [tested, setTested] = useState(null); // {ok, error?, values} of the last test
  const [problem, setProblem] = useState(null);
  const set = (field) => (event) => {
    setValues({ ...values, [field]: event.currentTarget.value });
  };
  const config = {
    baseUrl: values.baseUrl.trim(),
    clientId: values.clientId.trim(),
    clientSecret: values.clientSecret,
  };
  const testedOk = tested && tested.ok && JSON.stringify(tested.config) === JSON.stringify(config);
  const missing = ['baseUrl', 'clientId', 'clientSecret'].filter((f) => !config[f]);
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
    setBusy('test');
    announce('Testing the connection…');
    try {
      const result = await api('POST', '/connectors/test', { type: 'ats-a', config });
      setTested({ ...result, config });
      if (result.ok) {
        announce('The connection works. Choose Save to add the connector.');
        setTimeout(() => document.getElementById('save-connector')?.focus(), 0);
      } else setProblem({ error: result.error, fields: setupProblem(result.error).fields });
    } catch (failure) {
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
      const connector = await api('POST', '/connectors', { type: 'ats-a', name: values.name.trim(), config });
      setFlash({
        kind: 'created',
        text: `Connection successful: “${connector.name}” is connected to ATS-A.`,
      });
      navigate(`/connectors/${connector.id}`);
    } catch (failure) {
      setTested(null);
      setProblem({ error: failure, fields: setupProblem(failure).fields });
    } finally {
      setBusy(null);
    }
  };
  const onSubmit = (event) => {
    event.preventDefault();
    const intent = event.submitter && event.submitter.value;
    return intent === 'save' ? save() : test();
  };
  const invalid = (field) => Boolean(problem && problem.fields.includes(field));
  const info = problem ? setupProblem(problem.error) : null;

  return view`<main id="main" class="narrow">
    <p class="crumbs"><${Link} to="/">Connectors<//> › <${Link} to="/connectors/new">Add a connector<//> › ATS-A</p>
    <${PageTitle}>Connect ATS-A<//>
    <p>Enter the API details from your ATS-A account, test the connection, then save.</p>
    <form class="card" onSubmit=${onSubmit} novalidate>
      <${Field} id="name" label="Connector name" hint="How this connector is called here.">
        ${(p) => view`<input ...${p} name="name" type="text" value=${values.name} onInput=${set('name')} required />`}
      <//>
      <${Field} id="baseUrl" label="Base API URL" invalid=${invalid('baseUrl')} problemId="setup-problem"
        hint="Your system's address without “/api”, for example https://acme.ats-a.example">
        ${(
          p,
        ) => view`<input ...${p} name="baseUrl" type="url" inputmode="url" autocomplete="url" spellcheck="false"
          placeholder="https://acme.ats-a.example" value=${values.baseUrl} onInput=${set('baseUrl')} required />`}
      <//>
      ${apiSuffix ? view`<p class="field-warning" role="status">Leave out “/api” at the end: enter only your system's address.</p>` : null}
      <${Field} id="clientId" label="Client ID" invalid=${invalid('clientId')} problemId="setup-problem"
        hint="In ATS-A: Settings → API keys.">
        ${(p) => view`<input ...${p} name="clientId" type="text" autocomplete="off" spellcheck="false"
          value=${values.clientId} onInput=${set('clientId')} required />`}
      <//>
      <${Field} id="clientSecret" label="Client secret" invalid=${invalid('clientSecret')} problemId="setup-problem"
        hint="Shown once when the API key is created in ATS-A. It is stored encrypted and never shown again.">
        ${(p) => view`<input ...${p} name="clientSecret" type="password" autocomplete="new-password"
          value=${values.clientSecret} onInput=${set('clientSecret')} required />`}
      <//>
      <div aria-live="polite">
        ${info ? view`<${Problem} id="setup-problem" title=${info.title} error=${problem.error} advice=${info.advice} />` : null}
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
  const [error, setError] = useState(null);
  const submit = async (event) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
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
    } catch (failure) {
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
        ${(p) => view`<input ...${p} name="name" type="text" value=${name} onInput=${(e) => setName(e.currentTarget.value)} required />`}
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
          onChange=${(e) => setSendSmartCv(e.currentTarget.checked)} aria-describedby="sendSmartCv-hint" />
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
