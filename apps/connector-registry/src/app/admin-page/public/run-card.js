// @ts-check
// "Run": start a vacancy run (changes only, or a full listing) and watch the newest run's progress.
import { useState } from 'preact/hooks';
import { api } from './api.js';
import { EventFeedLine } from './event-feed.js';
import { COUNT_LABELS } from './runs-table.js';
import {
  connectorPath,
  formatTime,
  Problem,
  runIsActive,
  runStatusLabel,
  typeLabel,
  useApp,
  valueOf,
  view,
} from './ui.js';

/** @typedef {import('./api.js').ApiError} ApiError */

/** @typedef {import('./admin-api').ConnectorResponse} Connector */
/** @typedef {import('./admin-api').RunResponse} Run */

/**
 * @param {{ connector: Connector, latest: Run | null, loadRuns: () => Promise<unknown>,
 *   clearConfirmation: () => void }} props
 */
export function RunCard({ connector, latest, loadRuns, clearConfirmation }) {
  const { announce } = useApp();
  const [mode, setMode] = useState('incremental');
  const [starting, setStarting] = useState(false);
  const [runProblem, setRunProblem] = useState(
    /** @type {{ title: string, error: { message: string } } | null} */ (null),
  );
  const active = runIsActive(latest);

  const start = async (/** @type {Event} */ event) => {
    event.preventDefault();
    setRunProblem(null);
    setStarting(true);
    try {
      await api('POST', connectorPath(connector.id, '/runs'), { mode });
      clearConfirmation();
      announce('Run started.');
      await loadRuns();
    } catch (caught) {
      const failure = /** @type {ApiError} */ (caught);
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

  const canRun = connector.status === 'connected';
  return view`<section class="card" aria-labelledby="run-title">
      <h2 id="run-title">Run</h2>
      <p>Fetch the live vacancies from ${typeLabel(connector.type)} now. Runs also happen on their own every ${connector.options && connector.options.syncIntervalMinutes ? connector.options.syncIntervalMinutes : 15} minutes.</p>
      <${EventFeedLine} connector=${connector} />
      <form class="inline" onSubmit=${start}>
        <div class="field">
          <label for="run-mode">What to fetch</label>
          <select id="run-mode" value=${mode} onChange=${(/** @type {Event} */ e) => setMode(valueOf(e))} disabled=${!canRun}>
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
    </section>`;
}

/** @param {{ run: Run }} props */
function RunProgress({ run }) {
  const active = runIsActive(run);
  return view`<div class=${`run-progress run-${run.status}`} aria-live="polite" aria-busy=${active ? 'true' : 'false'}>
    <p class="run-status"><strong>${active ? (run.status === 'queued' ? 'Waiting to start…' : 'Running…') : `Last run ${runStatusLabel(run.status).toLowerCase()}`}</strong>
      ${run.mode === 'full' ? ' (full listing) ' : ' (changes only) '}
      · ${run.finishedAt ? `finished ${formatTime(run.finishedAt)}` : run.startedAt ? `started ${formatTime(run.startedAt)}` : `queued ${formatTime(run.queuedAt)}`}</p>
    ${!active && run.nextRunAt ? view`<p class="run-next" data-next-run>Next scheduled run ${Date.parse(run.nextRunAt) > Date.now() ? formatTime(run.nextRunAt) : 'due now'}</p>` : null}
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
