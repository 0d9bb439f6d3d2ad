// One connector: its access (Authorize / re-authorize), Run with live progress, run history, failures,
// and the Mapping and Settings tabs.
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { api } from './api.js';
import { useAuthorize } from './authorize.js';
import { BudgetCard } from './budget-card.js';
import { setupProblem } from './connectors.js';
import { MappingTab } from './mapping-tab.js';
import {
  Field,
  formatTime,
  view,
  Link,
  PageTitle,
  Problem,
  runIsActive,
  runStatusLabel,
  StatusBadge,
  typeLabel,
  useApp,
} from './ui.js';

const POLL_MS = 1500;
const MESSAGE_LABELS = {
  'candidate.created': 'New candidate',
  'candidate.updated': 'Candidate update',
  'application.submitted': 'New application',
  'application.updated': 'Application update',
  'document.uploaded': 'Document (CV)',
  'run.requested': 'Vacancy run',
};
const messageLabel = (type) => MESSAGE_LABELS[type] || type || 'Message';
const path = (id, rest = '') => `/connectors/${encodeURIComponent(id)}${rest}`;

export function ConnectorPage({ id, tab }) {
  const { flash, setFlash, announce } = useApp();
  const [connector, setConnector] = useState(null);
  const [error, setError] = useState(null);
  const [confirmation, setConfirmation] = useState(flash);
  const load = useCallback(
    () =>
      api('GET', path(id))
        .then((c) => {
          setConnector(c);
          return c;
        })
        .catch((failure) => {
          setError(failure);
          return null;
        }),
    [id],
  );

  useEffect(() => {
    setFlash(null);
    // Back from the ATS-B login in this same window (no popup): confirm once the connector says so.
    const params = new URLSearchParams(location.search);
    void load().then((c) => {
      if (params.get('authorized') === '1') {
        history.replaceState(null, '', location.pathname);
        if (c && c.status === 'connected') onAuthorized(c);
      }
    });
  }, [id]);

  const onAuthorized = (c) => {
    const text = `Connection successful: “${c.name}” is connected to ATS-B.`;
    setConfirmation({ kind: 'authorized', text });
    announce(text);
  };

  if (error) {
    return view`<main id="main"><p class="crumbs"><${Link} to="/">Connectors<//></p>
      <${PageTitle}>${error.status === 404 ? 'Connector not found' : 'Could not load the connector'}<//>
      <${Problem} title=${error.status === 404 ? 'There is no such connector in this account; it may have been deleted.' : 'The connector could not be loaded'} error=${error.status === 404 ? null : error} />
      <p><${Link} to="/">Back to the connectors<//></p></main>`;
  }
  if (!connector) return view`<main id="main"><p role="status">Loading the connector…</p></main>`;

  const tabs = [
    ['overview', 'Overview', ''],
    ['mapping', 'Mapping', '/mapping'],
    ['settings', 'Settings', '/settings'],
  ];
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
              ? view`<p>Next: check how its jobs become vacancies in the <${Link} to=${path(id, '/mapping')}>Mapping<//> tab,
                or choose <strong>Run</strong> to fetch the live vacancies now.</p>`
              : null
          }
        </div>`
        : null
    }
    <nav class="tabs" aria-label="Connector">
      ${tabs.map(
        ([key, label, suffix]) =>
          view`<${Link} to=${path(id, suffix)} aria-current=${tab === key ? 'page' : undefined}>${label}<//>`,
      )}
    </nav>
    ${
      tab === 'overview'
        ? view`<${Overview} connector=${connector} reload=${load} onAuthorized=${onAuthorized}
          clearConfirmation=${() => setConfirmation(null)} />`
        : null
    }
    ${tab === 'mapping' ? view`<${MappingTab} connector=${connector} />` : null}
    ${tab === 'settings' ? view`<${Settings} connector=${connector} reload=${load} />` : null}
  </main>`;
}

function Access({ connector, reload, onAuthorized }) {
  const { announce } = useApp();
  const [notice, setNotice] = useState(null);
  const authorize = useAuthorize(connector.id, async (ok) => {
    const c = await reload();
    if (ok && c && c.status === 'connected') {
      setNotice(null);
      onAuthorized(c);
    } else if (c && c.status !== 'connected') {
      const text =
        'The ATS-B login window was closed before access was granted. Choose Authorize to try again.';
      setNotice(text);
      announce(text);
    }
  });
  if (connector.type === 'ats-b' && connector.status !== 'connected' && connector.status !== 'disabled') {
    const lost = connector.status === 'auth_failed';
    return view`<section class=${`card ${lost ? 'attention' : ''}`} aria-labelledby="access-title">
      <h2 id="access-title">${lost ? 'ATS-B access was lost' : 'Authorize access to ATS-B'}</h2>
      <p>${
        lost
          ? 'ATS-B no longer accepts this connector’s authorization (the login was revoked or expired). Nothing syncs until you log in again.'
          : 'Log in to ATS-B in the window that opens, with your ATS-B username and password. You come back here when it is done.'
      }</p>
      ${notice ? view`<p class="warning" role="status">${notice}</p>` : null}
      ${authorize.error ? view`<${Problem} title="Could not start the ATS-B login" error=${authorize.error} />` : null}
      <div class="actions">
        <button type="button" class="primary" onClick=${authorize.start} disabled=${authorize.busy}>
          ${lost ? 'Re-authorize' : 'Authorize'}</button>
        ${authorize.waiting ? view`<span role="status">Waiting for the ATS-B login in the other window…</span>` : null}
      </div>
    </section>`;
  }
  if (connector.type === 'ats-a' && connector.status === 'auth_failed') {
    return view`<section class="card attention" aria-labelledby="access-title">
      <h2 id="access-title">ATS-A refused the stored credentials</h2>
      <p>The client secret may have been changed or the API key deactivated in ATS-A. The stored credentials are kept and tried again every few minutes: if ATS-A was only unavailable, the connector reconnects by itself. Otherwise nothing syncs until you enter working credentials.</p>
      <div class="actions"><${Link} class="button primary" to=${path(connector.id, '/settings')}>Update credentials<//></div>
    </section>`;
  }
  return null;
}

function Overview({ connector, reload, onAuthorized, clearConfirmation }) {
  const { announce } = useApp();
  const [runs, setRuns] = useState(null);
  const [runsError, setRunsError] = useState(null);
  const [mode, setMode] = useState('incremental');
  const [starting, setStarting] = useState(false);
  const [runProblem, setRunProblem] = useState(null);
  const [failures, setFailures] = useState(null); // null: not shown (endpoint missing or failing)
  const wasActive = useRef(false);

  const loadRuns = useCallback(
    () =>
      api('GET', path(connector.id, '/runs?limit=10'))
        .then((body) => {
          setRuns(body.runs);
          setRunsError(null);
          return body.runs;
        })
        .catch((failure) => {
          setRunsError(failure);
          return null;
        }),
    [connector.id],
  );
  const loadFailures = useCallback(
    () =>
      api('GET', path(connector.id, '/failures?limit=20'))
        .then((body) => setFailures(Array.isArray(body && body.failures) ? body.failures : null))
        .catch(() => setFailures(null)),
    [connector.id],
  );
  useEffect(() => {
    void loadRuns();
    void loadFailures();
  }, [connector.id]);

  const latest = runs && runs[0];
  const active = runIsActive(latest);
  // Live progress: poll while the newest run is queued or running; say so when it ends.
  useEffect(() => {
    if (!active) {
      if (wasActive.current && latest) {
        wasActive.current = false;
        announce(
          `Run ${runStatusLabel(latest.status).toLowerCase()}: ${latest.counts.fetched} fetched, ${latest.counts.upserted} new or changed.` +
            (latest.warnings && latest.warnings.length
              ? ` Worth checking: ${latest.warnings[0].message}`
              : ''),
        );
        void loadFailures();
        void reload();
      }
      return undefined;
    }
    wasActive.current = true;
    const timer = setInterval(() => void loadRuns(), POLL_MS);
    return () => clearInterval(timer);
  }, [active, latest && latest.status]);

  const start = async (event) => {
    event.preventDefault();
    setRunProblem(null);
    setStarting(true);
    try {
      await api('POST', path(connector.id, '/runs'), { mode });
      clearConfirmation();
      announce('Run started.');
      await loadRuns();
    } catch (failure) {
      if (failure.code === 'RUN_IN_PROGRESS') {
        setRunProblem({
          title: 'A run is already in progress',
          error: { message: 'Its progress is shown below.' },
        });
        await loadRuns();
      } else if (failure.code === 'CONNECTOR_NOT_CONNECTED') {
        setRunProblem({ title: 'This connector is not connected', error: failure });
      } else {
        setRunProblem({ title: 'The run could not be started', error: failure });
      }
    } finally {
      setStarting(false);
    }
  };

  const replay = async (failure) => {
    try {
      await api('POST', `/failures/${encodeURIComponent(failure.id)}/replay`);
      announce('Sent back for another try.');
      await loadFailures();
    } catch (error) {
      announce(`Could not replay it: ${error.message}`);
    }
  };

  const canRun = connector.status === 'connected';
  return view`
    <${Access} connector=${connector} reload=${reload} onAuthorized=${onAuthorized} />
    ${connector.type === 'ats-a' ? view`<${BudgetCard} connector=${connector} />` : null}
    <section class="card" aria-labelledby="run-title">
      <h2 id="run-title">Run</h2>
      <p>Fetch the live vacancies from ${connector.type === 'ats-a' ? 'ATS-A' : 'ATS-B'} now. Runs also happen on their own every ${connector.options && connector.options.syncIntervalMinutes ? connector.options.syncIntervalMinutes : 15} minutes.</p>
      <form class="inline" onSubmit=${start}>
        <div class="field">
          <label for="run-mode">What to fetch</label>
          <select id="run-mode" value=${mode} onChange=${(e) => setMode(e.currentTarget.value)} disabled=${!canRun}>
            <option value="incremental">Changes since the last run</option>
            <option value="full">Everything (full listing; also closes vacancies no longer live)</option>
          </select>
        </div>
        <button type="submit" class="primary" disabled=${!canRun || starting || active}>
          ${starting ? 'Starting…' : active ? 'Running…' : 'Run'}</button>
      </form>
      ${!canRun ? view`<p class="hint">Runs start once the connector is connected.</p>` : null}
      ${runProblem ? view`<${Problem} title=${runProblem.title} error=${runProblem.error} />` : null}
      ${latest ? view`<${RunProgress} run=${latest} />` : null}
    </section>
    <section class="card" aria-labelledby="runs-title">
      <h2 id="runs-title">Recent runs</h2>
      ${runsError ? view`<${Problem} title="Could not load the runs" error=${runsError} />` : null}
      ${runs && runs.length === 0 ? view`<p>No runs yet.</p>` : null}
      ${runs && runs.length > 0 ? view`<${RunsTable} runs=${runs} />` : null}
    </section>
    ${
      failures
        ? view`<section class="card" aria-labelledby="failures-title">
          <h2 id="failures-title">Recent failures</h2>
          ${
            failures.length === 0
              ? view`<p>No failures. Everything sent to or read from the ATS went through.</p>`
              : view`<ul class="failures">${failures.map(
                  (f) => view`<li key=${f.id}>
                  <p><strong>${messageLabel(f.type)}</strong> · ${formatTime(f.failedAt)}
                    ${f.retryable ? view` · <span class="tag">can be retried</span>` : view` · <span class="tag">will not succeed as it is</span>`}
                    ${f.replayedAt ? view` · replayed ${formatTime(f.replayedAt)}` : null}</p>
                  <ul class="reasons">${(f.reasons || []).map((r) => view`<li>${r}</li>`)}</ul>
                  ${
                    f.retryable
                      ? view`<button type="button" onClick=${() => replay(f)} aria-label=${`Replay the failed ${messageLabel(f.type)} from ${formatTime(f.failedAt)}`}>Replay</button>`
                      : null
                  }
                </li>`,
                )}</ul>`
          }
        </section>`
        : null
    }
  `;
}

const COUNT_LABELS = [
  ['fetched', 'Fetched'],
  ['upserted', 'New or changed'],
  ['unchanged', 'Unchanged'],
  ['closed', 'Closed'],
];

function RunProgress({ run }) {
  const active = runIsActive(run);
  return view`<div class=${`run-progress run-${run.status}`} aria-live="polite" aria-busy=${active ? 'true' : 'false'}>
    <p class="run-status"><strong>${active ? (run.status === 'queued' ? 'Waiting to start…' : 'Running…') : `Last run ${runStatusLabel(run.status).toLowerCase()}`}</strong>
      ${run.mode === 'full' ? ' (full listing) ' : ' (changes only) '}
      · ${run.finishedAt ? `finished ${formatTime(run.finishedAt)}` : run.startedAt ? `started ${formatTime(run.startedAt)}` : `queued ${formatTime(run.queuedAt)}`}</p>
    ${active ? view`<progress aria-label="Run in progress"></progress>` : null}
    ${run.waitingForBudgetUntil ? view`<p class="run-waiting" data-run-waiting>Waiting for ATS budget until ${formatTime(run.waitingForBudgetUntil)}; it goes on by itself.</p>` : null}
    <dl class="counts">
      ${COUNT_LABELS.map(([key, label]) => view`<div><dt>${label}</dt><dd data-count=${key}>${run.counts[key]}</dd></div>`)}
      <div><dt>API calls</dt><dd data-count="apiCalls">${run.apiCalls}</dd></div>
    </dl>
    ${
      run.errors && run.errors.length
        ? view`<div class="problem"><p class="problem-title">What went wrong</p><ul>${run.errors.map((e) => view`<li>${e}</li>`)}</ul></div>`
        : null
    }
    ${
      run.warnings && run.warnings.length
        ? view`<div class="warning run-warnings" role="status"><p class="problem-title">Worth checking</p><ul>${run.warnings.map((w) => view`<li data-warning=${w.code}>${w.message}</li>`)}</ul></div>`
        : null
    }
  </div>`;
}

function RunsTable({ runs }) {
  return view`<table>
    <thead><tr><th scope="col">Queued</th><th scope="col">Mode</th><th scope="col">Status</th>
      ${COUNT_LABELS.map(([, label]) => view`<th scope="col" class="num">${label}</th>`)}
      <th scope="col" class="num">API calls</th></tr></thead>
    <tbody>${runs.map(
      (run) => view`<tr key=${run.id}>
        <td>${formatTime(run.queuedAt)}</td>
        <td>${run.mode === 'full' ? 'Full' : 'Changes'}</td>
        <td><span class=${`run-badge run-${run.status}`}>${runStatusLabel(run.status)}</span>
          ${run.waitingForBudgetUntil ? view`<br /><span class="hint">waiting for ATS budget until ${formatTime(run.waitingForBudgetUntil)}</span>` : null}
          ${run.errors && run.errors.length && !run.waitingForBudgetUntil ? view`<br /><span class="hint">${run.errors[0]}</span>` : null}
          ${run.warnings && run.warnings.length ? view`<br /><span class="hint run-warning">Worth checking: ${run.warnings.map((w) => w.message).join(' ')}</span>` : null}</td>
        ${COUNT_LABELS.map(([key]) => view`<td class="num">${run.counts[key]}</td>`)}
        <td class="num">${run.apiCalls}</td>
      </tr>`,
    )}</tbody>
  </table>`;
}

function Settings({ connector, reload }) {
  const { announce, navigate, setFlash } = useApp();
  const [name, setName] = useState(connector.name);
  const [sendSmartCv, setSendSmartCv] = useState(Boolean(connector.options && connector.options.sendSmartCv));
  const [credentials, setCredentials] = useState({
    baseUrl: connector.config.baseUrl || '',
    clientId: connector.config.clientId || '',
    clientSecret: '',
  });
  const [problem, setProblem] = useState(null);
  const [saved, setSaved] = useState(null);
  const [busy, setBusy] = useState(false);
  const [confirmDelete, setConfirmDelete] = useState(false);

  const patch = async (body, what) => {
    setProblem(null);
    setSaved(null);
    setBusy(true);
    try {
      await api('PATCH', path(connector.id), body);
      await reload();
      setSaved(what);
      announce(what);
      return true;
    } catch (failure) {
      setProblem({ error: failure, where: Object.keys(body)[0] });
      return false;
    } finally {
      setBusy(false);
    }
  };
  const remove = async () => {
    setBusy(true);
    try {
      await api('DELETE', path(connector.id));
      setFlash({ kind: 'deleted', text: `Removed “${connector.name}” and erased its credentials.` });
      navigate('/');
    } catch (failure) {
      setProblem({ error: failure, where: 'delete' });
      setBusy(false);
    }
  };
  const problemFor = (where, title) =>
    problem && problem.where === where ? view`<${Problem} title=${title} error=${problem.error} />` : null;
  const credentialProblem = problem && problem.where === 'config' ? setupProblem(problem.error) : null;

  return view`
    ${saved ? view`<p class="success" role="status">${saved}</p>` : null}
    <section class="card" aria-labelledby="general-title">
      <h2 id="general-title">General</h2>
      <form onSubmit=${(e) => {
        e.preventDefault();
        const body = { name: name.trim() };
        if (connector.type === 'ats-b') body.options = { sendSmartCv };
        void patch(body, 'Settings saved.');
      }}>
        <${Field} id="settings-name" label="Connector name">
          ${(p) => view`<input ...${p} type="text" value=${name} onInput=${(e) => setName(e.currentTarget.value)} required />`}
        <//>
        ${
          connector.type === 'ats-b'
            ? view`<div class="choice">
              <input type="checkbox" id="settings-smart-cv" checked=${sendSmartCv} onChange=${(e) => setSendSmartCv(e.currentTarget.checked)} />
              <label for="settings-smart-cv">Send Smart CV</label>
            </div>`
            : null
        }
        ${problemFor('name', 'The settings were not saved')}
        <div class="actions"><button type="submit" class="primary" disabled=${busy}>Save settings</button></div>
      </form>
    </section>
    ${
      connector.type === 'ats-a'
        ? view`<section class="card" aria-labelledby="credentials-title">
          <h2 id="credentials-title">Credentials</h2>
          <p>Enter the client secret again to change any of them; they are tested with ATS-A before they are saved.</p>
          <form onSubmit=${(e) => {
            e.preventDefault();
            void patch(
              {
                config: {
                  ...credentials,
                  baseUrl: credentials.baseUrl.trim(),
                  clientId: credentials.clientId.trim(),
                },
              },
              'Credentials tested and saved.',
            ).then((ok) => ok && setCredentials({ ...credentials, clientSecret: '' }));
          }} novalidate>
            ${[
              ['baseUrl', 'Base API URL', 'url', 'Without “/api”.'],
              ['clientId', 'Client ID', 'text', 'In ATS-A: Settings → API keys.'],
              ['clientSecret', 'Client secret', 'password', 'Required to save any change.'],
            ].map(
              ([
                field,
                label,
                type,
                hint,
              ]) => view`<${Field} id=${`settings-${field}`} label=${label} hint=${hint}
                invalid=${Boolean(credentialProblem && credentialProblem.fields.includes(field))} problemId="credentials-problem">
                ${(
                  p,
                ) => view`<input ...${p} type=${type} autocomplete=${type === 'password' ? 'new-password' : 'off'} value=${credentials[field]}
                  onInput=${(e) => setCredentials({ ...credentials, [field]: e.currentTarget.value })} />`}
              <//>`,
            )}
            ${credentialProblem ? view`<${Problem} id="credentials-problem" title=${credentialProblem.title} error=${problem.error} advice=${credentialProblem.advice} />` : null}
            <div class="actions"><button type="submit" class="primary" disabled=${busy || !credentials.clientSecret}>Test and save credentials</button></div>
          </form>
        </section>`
        : null
    }
    <section class="card" aria-labelledby="state-title">
      <h2 id="state-title">${connector.status === 'disabled' ? 'Enable' : 'Disable'} or remove</h2>
      <p>${
        connector.status === 'disabled'
          ? 'This connector is disabled: nothing is synced.'
          : 'Disabling stops every sync for this connector; its settings are kept.'
      }</p>
      ${problemFor('status', 'The status was not changed')}
      ${problemFor('delete', 'The connector was not removed')}
      <div class="actions">
        <button type="button" disabled=${busy} onClick=${() =>
          patch(
            { status: connector.status === 'disabled' ? 'connected' : 'disabled' },
            connector.status === 'disabled' ? 'Connector enabled.' : 'Connector disabled.',
          )}>
          ${connector.status === 'disabled' ? 'Enable' : 'Disable'}</button>
        ${
          confirmDelete
            ? view`<span role="alert">Remove “${connector.name}” and erase its credentials?</span>
              <button type="button" class="danger" disabled=${busy} onClick=${remove}>Yes, remove it</button>
              <button type="button" onClick=${() => setConfirmDelete(false)}>Keep it</button>`
            : view`<button type="button" class="danger" onClick=${() => setConfirmDelete(true)}>Remove…</button>`
        }
      </div>
    </section>`;
}
