// @ts-check
// The Mapping tab's preview: live vacancies from the ATS as the edited mapping would publish them.
import { REQUIRED } from './mapping-rows.js';
import { Problem, view } from './ui.js';

/** @typedef {import('./api.js').ApiError} ApiError */

/** @typedef {import('./admin-api').VacancyUpserted} PreviewVacancy */

/** ATS texts are often HTML; the preview shows their words (parsed inertly, never inserted as HTML). */
/** @param {unknown} value */
function plainText(value) {
  if (!value) return '';
  const separated = String(value).replace(/<\/(li|p|div|h\d)>|<br\s*\/?>/gi, ' · ');
  const text = new DOMParser().parseFromString(separated, 'text/html').body.textContent || '';
  return text
    .replace(/\s+/g, ' ')
    .replace(/^[\s·]+|[\s·]+$/g, '')
    .replace(/(\s·)+/g, ' ·');
}

const sentence = (/** @type {string} */ text) => (/[.!?]$/.test(text) ? text : `${text}.`);

/**
 * What the preview found: the vacancies as they would be published, or why there is none.
 * @typedef {{ vacancies: PreviewVacancy[] } | { error: ApiError }} PreviewResult
 */

/** @param {{ preview: PreviewResult }} props */
export function MappingPreview({ preview }) {
  if ('error' in preview) {
    const unavailable = preview.error.status === 503;
    return view`<${Problem}
      title=${unavailable ? 'The preview is not available right now' : 'The preview failed'}
      error=${
        unavailable
          ? {
              message: `${sentence(preview.error.message)} Saving the mapping still works; preview again in a minute.`,
            }
          : preview.error
      } />`;
  }
  if (preview.vacancies.length === 0) return view`<p>No live vacancies to preview in the ATS right now.</p>`;
  return view`<h3>Preview: ${preview.vacancies.length} live vacancies as they would be published</h3>
    <div class="scroll"><table class="preview">
      <thead><tr><th scope="col">ATS id</th><th scope="col">Title</th><th scope="col">Location</th>
        <th scope="col">Status</th><th scope="col">Requirements</th><th scope="col">Other fields</th></tr></thead>
      <tbody>${preview.vacancies.map(
        (v) => view`<tr key=${v.externalId}>
          <td>${v.externalId}</td><td>${v.title}</td><td>${v.location}</td><td>${v.status}</td>
          <td class="clip" title=${plainText(v.requirements)}>${plainText(v.requirements)}</td>
          <td>${Object.entries(v.fields || {})
            .filter(([k]) => !REQUIRED.includes(k))
            .map(
              ([k, value]) =>
                view`<div><span class="hint">${k}:</span> ${typeof value === 'object' ? JSON.stringify(value) : String(value)}</div>`,
            )}</td>
        </tr>`,
      )}</tbody>
    </table></div>`;
}
