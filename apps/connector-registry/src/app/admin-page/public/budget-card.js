// @ts-check
// The daily call budget (an ATS with the 'daily-budget' capability) of the connector's customer system: used today (ours and everyone's), the limit,
// the reset, where the current rate leads, work waiting for budget; the operator can change the limit.
import { useCallback, useEffect, useState } from 'preact/hooks';
import { api } from './api.js';
import { formatTime, Problem, view, useApp, valueOf } from './ui.js';

/** @typedef {import('./api.js').ApiError} ApiError */

const POLL_MS = 5000;
/** @type {Record<import('./admin-api').BudgetView['state'], string>} */
const STATE_LABELS = {
  ok: 'Within budget',
  exhausted: 'Budget used up for today',
  paused: 'Paused by the ATS (429)',
};

/** @param {{ connector: import('./admin-api').ConnectorResponse }} props */
export function BudgetCard({ connector }) {
  const { announce } = useApp();
  const [budget, setBudget] = useState(/** @type {import('./admin-api').BudgetView | null} */ (null));
  const [error, setError] = useState(/** @type {ApiError | null} */ (null));
  const [limit, setLimit] = useState('');
  const [saving, setSaving] = useState(false);

  const load = useCallback(async () => {
    try {
      setBudget(await api('GET', `/connectors/${encodeURIComponent(connector.id)}/budget`));
      setError(null);
    } catch (failure) {
      setError(/** @type {ApiError} */ (failure));
    }
  }, [connector.id]);

  useEffect(() => {
    void load();
    const timer = setInterval(() => void load(), POLL_MS);
    return () => clearInterval(timer);
  }, [load]);

  const save = async (/** @type {Event} */ event) => {
    event.preventDefault();
    const value = Number(limit);
    if (!Number.isInteger(value) || value < 1) {
      announce('The daily limit must be a whole number of calls, at least 1.');
      return;
    }
    setSaving(true);
    try {
      await api('PATCH', `/connectors/${encodeURIComponent(connector.id)}`, {
        options: { dailyCallLimit: value },
      });
      setLimit('');
      announce(`Daily limit set to ${value} calls; the plan follows at once.`);
      await load();
    } catch (failure) {
      announce(`Could not change the limit: ${/** @type {ApiError} */ (failure).message}`);
    } finally {
      setSaving(false);
    }
  };

  if (error)
    return view`<section class="card" aria-labelledby="budget-title"><h2 id="budget-title">ATS budget today</h2>
    <${Problem} title="Could not load the ATS budget" error=${error} /></section>`;
  if (!budget) return null;
  const waiting = budget.waiting.messages + budget.waiting.runs;
  return view`<section class=${`card budget budget-${budget.state} ${budget.state === 'ok' ? '' : 'attention'}`} aria-labelledby="budget-title">
    <h2 id="budget-title">ATS budget today</h2>
    <p class="budget-state"><strong>${STATE_LABELS[budget.state]}</strong></p>
    <p class="budget-message">${budget.message}</p>
    <dl class="counts">
      <div><dt>Used by this service</dt><dd data-budget="ours">${budget.used.ours}</dd></div>
      <div><dt>Used by everyone</dt><dd data-budget="everyone">${budget.used.everyone}</dd></div>
      <div><dt>Daily limit</dt><dd data-budget="limit">${budget.limit}</dd></div>
      <div><dt>Left</dt><dd data-budget="remaining">${budget.remaining}</dd></div>
      <div><dt>Projected use at the current rate</dt><dd data-budget="projected">${budget.projectedUse}</dd></div>
      <div><dt>Waiting for budget</dt><dd data-budget="waiting">${budget.waiting.messages} messages, ${budget.waiting.runs} runs</dd></div>
    </dl>
    <p class="hint">Resets ${formatTime(budget.resetAt)}${budget.resumesAt ? ` · resumes ${formatTime(budget.resumesAt)}` : ''} ·
      ${budget.pushReserve} calls kept for candidates and documents, ${budget.syncShare} for vacancy syncs
      ${budget.atsLimit !== null ? ` · the ATS reports a limit of ${budget.atsLimit}` : ''}${waiting > 0 ? ' · waiting work is not failed: it goes on by itself' : ''}</p>
    <form class="inline" onSubmit=${save}>
      <div class="field">
        <label for="budget-limit">Daily call limit (now ${budget.configuredLimit})</label>
        <input id="budget-limit" type="number" min="1" step="1" inputmode="numeric" value=${limit}
          onInput=${(/** @type {Event} */ e) => setLimit(valueOf(e))} />
      </div>
      <button type="submit" disabled=${saving || limit === ''}>${saving ? 'Saving…' : 'Change limit'}</button>
    </form>
  </section>`;
}
