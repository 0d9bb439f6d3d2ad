// @ts-check
// The connector's recent runs, newest first, with what each fetched and changed.
import { formatTime, runStatusLabel, view } from './ui.js';

/** @typedef {import('./admin-api').RunResponse} Run */

/** @type {Array<[keyof import('./admin-api').RunCountsResponse, string]>} */
export const COUNT_LABELS = [
  ['fetched', 'Fetched'],
  ['upserted', 'New or changed'],
  ['unchanged', 'Unchanged'],
  ['closed', 'Closed'],
];

/** @param {{ runs: Run[] }} props */
export function RunsTable({ runs }) {
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
