// @ts-check
// The connector's Overview tab: its access, the ATS budget, Run with live progress, recent runs and failures.
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { api } from './api.js';
import { AccessCard } from './access-card.js';
import { ActivityCard } from './activity-chart.js';
import { BudgetCard } from './budget-card.js';
import { FailuresCard } from './failures-card.js';
import { RunCard } from './run-card.js';
import { RunsTable } from './runs-table.js';
import { connectorPath, Problem, runIsActive, runStatusLabel, supports, useApp, view } from './ui.js';

/** @typedef {import('./api.js').ApiError} ApiError */

/** @typedef {import('./admin-api').ConnectorResponse} Connector */
/** @typedef {import('./admin-api').RunResponse} Run */
/** @typedef {import('./admin-api').FailureResponse} Failure */

const POLL_MS = 1500;

/**
 * @param {{ connector: Connector, reload: () => Promise<Connector | null>,
 *   onAuthorized: (connector: Connector) => void, clearConfirmation: () => void }} props
 */
export function OverviewTab({ connector, reload, onAuthorized, clearConfirmation }) {
  const { announce } = useApp();
  const [runs, setRuns] = useState(/** @type {Run[] | null} */ (null));
  const [runsError, setRunsError] = useState(/** @type {ApiError | null} */ (null));
  // null: not shown (endpoint missing or failing)
  const [failures, setFailures] = useState(/** @type {Failure[] | null} */ (null));
  const wasActive = useRef(false);

  const loadRuns = useCallback(
    () =>
      api('GET', connectorPath(connector.id, '/runs?limit=10'))
        .then((body) => {
          const { runs: loaded } = /** @type {{ runs: Run[] }} */ (body);
          setRuns(loaded);
          setRunsError(null);
          return loaded;
        })
        .catch((/** @type {ApiError} */ failure) => {
          setRunsError(failure);
          return null;
        }),
    [connector.id],
  );
  const loadFailures = useCallback(
    () =>
      api('GET', connectorPath(connector.id, '/failures?limit=20'))
        .then((body) => {
          const loaded = /** @type {{ failures?: unknown } | null} */ (body);
          setFailures(loaded && Array.isArray(loaded.failures) ? loaded.failures : null);
        })
        .catch(() => setFailures(null)),
    [connector.id],
  );
  useEffect(() => {
    void loadRuns();
    void loadFailures();
  }, [connector.id]);

  const latest = (runs && runs[0]) || null;
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

  return view`
    <${AccessCard} connector=${connector} reload=${reload} onAuthorized=${onAuthorized} />
    ${supports(connector.type, 'daily-budget') ? view`<${BudgetCard} connector=${connector} />` : null}
    <${ActivityCard} connector=${connector} refreshKey=${latest && latest.finishedAt} />
    <${RunCard} connector=${connector} latest=${latest} loadRuns=${loadRuns} clearConfirmation=${clearConfirmation} />
    <section class="card" aria-labelledby="runs-title">
      <h2 id="runs-title">Recent runs</h2>
      ${runsError ? view`<${Problem} title="Could not load the runs" error=${runsError} />` : null}
      ${runs && runs.length === 0 ? view`<p>No runs yet.</p>` : null}
      ${runs && runs.length > 0 ? view`<${RunsTable} runs=${runs} />` : null}
    </section>
    ${failures ? view`<${FailuresCard} failures=${failures} loadFailures=${loadFailures} />` : null}
  `;
}
