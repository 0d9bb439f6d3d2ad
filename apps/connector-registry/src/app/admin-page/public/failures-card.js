// @ts-check
// "Recent failures": what could not be sent to or read from the ATS, and a Replay for what may still succeed.
import { api } from './api.js';
import { formatTime, useApp, view } from './ui.js';

/** @typedef {import('./api.js').ApiError} ApiError */

/** @typedef {import('./admin-api').FailureResponse} Failure */

/** @type {Record<string, string>} */
const MESSAGE_LABELS = {
  'candidate.created': 'New candidate',
  'candidate.updated': 'Candidate update',
  'application.submitted': 'New application',
  'application.updated': 'Application update',
  'document.uploaded': 'Document (CV)',
  'run.requested': 'Vacancy run',
};
const messageLabel = (/** @type {string | null} */ type) =>
  (type && MESSAGE_LABELS[type]) || type || 'Message';

/** @param {{ failures: Failure[], loadFailures: () => Promise<unknown> }} props */
export function FailuresCard({ failures, loadFailures }) {
  const { announce } = useApp();
  const replay = async (/** @type {Failure} */ failure) => {
    try {
      await api('POST', `/failures/${encodeURIComponent(failure.id)}/replay`);
      announce('Sent back for another try.');
      await loadFailures();
    } catch (caught) {
      announce(`Could not replay it: ${/** @type {ApiError} */ (caught).message}`);
    }
  };
  return view`<section class="card" aria-labelledby="failures-title">
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
        </section>`;
}
