// @ts-check
// The "Mapping" tab: how the ATS's job fields become the platform's vacancy fields; edit, save, preview.
import { useEffect, useState } from 'preact/hooks';
import { api, BASE } from './api.js';
import { MappingPreview } from './mapping-preview.js';
import { FIELD_LABELS, FIRST_ADDED_KEY, localProblems, REQUIRED, toMapping, toRows } from './mapping-rows.js';
import { connectorPath, formatTime, view, Problem, typeLabel, useApp, valueOf } from './ui.js';

/** @typedef {import('./api.js').ApiError} ApiError */

/** @typedef {import('./admin-api').ConnectorResponse} Connector */
/** @typedef {import('./admin-api').MappingResponse} MappingVersion */
/** @typedef {import('./mapping-rows.js').MappingRow} MappingRow */
/** @typedef {import('./mapping-rows.js').PublishFilters} PublishFilters */
/** @typedef {import('./mapping-preview.js').PreviewResult} PreviewResult */
/** What stops a save or a preview: a title, the service's error, and one line per problem. */
/** @typedef {{ title: string, error?: ApiError | null, lines: string[] }} MappingErrors */

/** @type {Promise<Partial<Record<string, string[]>>> | null} */
let sourcePaths = null;
/** The ATS fields a mapping may name, per ATS type (for the inputs' suggestions). */
const loadSourcePaths = () => {
  sourcePaths ||= fetch(`${BASE}/assets/source-paths.json`)
    .then((r) => (r.ok ? r.json() : {}))
    .catch(() => ({}));
  return sourcePaths;
};

/** @param {{ connector: Connector }} props */
export function MappingTab({ connector }) {
  const { announce } = useApp();
  const [current, setCurrent] = useState(/** @type {MappingVersion | null} */ (null));
  const [rows, setRows] = useState(/** @type {MappingRow[]} */ ([]));
  const [publish, setPublish] = useState(/** @type {PublishFilters} */ ({ statuses: '', locations: '' }));
  const [loadError, setLoadError] = useState(/** @type {ApiError | null} */ (null));
  const [errors, setErrors] = useState(/** @type {MappingErrors | null} */ (null));
  const [saved, setSaved] = useState(/** @type {string | null} */ (null));
  const [busy, setBusy] = useState(/** @type {'save' | 'preview' | null} */ (null));
  const [preview, setPreview] = useState(/** @type {PreviewResult | null} */ (null));
  const [paths, setPaths] = useState(/** @type {string[]} */ ([]));
  const [nextKey, setNextKey] = useState(FIRST_ADDED_KEY);
  const mappingPath = connectorPath(connector.id, '/mapping');

  const show = (/** @type {MappingVersion} */ version) => {
    setCurrent(version);
    setRows(toRows(version.mapping));
    const p = version.mapping.publish || {};
    setPublish({ statuses: (p.statuses || []).join(', '), locations: (p.locations || []).join(', ') });
  };
  useEffect(() => {
    api('GET', mappingPath)
      .then((body) => show(/** @type {MappingVersion} */ (body)))
      .catch(setLoadError);
    void loadSourcePaths().then((all) => setPaths(all[connector.type] || []));
  }, [connector.id]);

  const update = (/** @type {number} */ key, /** @type {Partial<MappingRow>} */ change) =>
    setRows(rows.map((row) => (row.key === key ? { ...row, ...change } : row)));
  const addRow = () => {
    setRows([...rows, { key: nextKey, target: '', kind: 'from', from: '', fallback: '', constant: '' }]);
    setNextKey(nextKey + 1);
    setTimeout(() => document.getElementById(`target-${nextKey}`)?.focus(), 0);
  };
  const removeRow = (/** @type {number} */ key) => setRows(rows.filter((row) => row.key !== key));

  const checkLocally = () => {
    const problems = localProblems(rows);
    if (problems.length) {
      setErrors({ title: 'The mapping needs a fix', lines: problems });
      return false;
    }
    return true;
  };
  const save = async (/** @type {Event} */ event) => {
    event.preventDefault();
    setErrors(null);
    setSaved(null);
    if (!checkLocally()) return;
    setBusy('save');
    try {
      /** @type {MappingVersion} */
      const version = await api('PUT', mappingPath, toMapping(rows, publish));
      show(version);
      const text = `Mapping saved as version ${version.version}.`;
      setSaved(text);
    } catch (caught) {
      const failure = /** @type {ApiError} */ (caught);
      setErrors({
        title:
          failure.code === 'INVALID_MAPPING'
            ? 'The mapping was not saved: fix these problems'
            : 'The mapping was not saved',
        error: failure.code === 'INVALID_MAPPING' ? null : failure,
        lines: (failure.details && failure.details.errors) || [],
      });
    } finally {
      setBusy(null);
    }
  };
  const runPreview = async () => {
    setErrors(null);
    if (!checkLocally()) return;
    setBusy('preview');
    setPreview(null);
    try {
      /** @type {{ vacancies?: unknown }} */
      const body = await api('POST', `${mappingPath}/preview`, {
        mapping: toMapping(rows, publish),
        limit: 5,
      });
      const vacancies = Array.isArray(body.vacancies) ? body.vacancies : [];
      setPreview({ vacancies });
      announce(`Preview: ${vacancies.length} vacancies.`);
    } catch (caught) {
      const failure = /** @type {ApiError} */ (caught);
      if (failure.code === 'INVALID_MAPPING') {
        setErrors({
          title: 'Fix the mapping to preview it',
          lines: (failure.details && failure.details.errors) || [],
        });
      } else {
        setPreview({ error: failure });
      }
    } finally {
      setBusy(null);
    }
  };

  if (loadError) return view`<${Problem} title="Could not load the mapping" error=${loadError} />`;
  if (!current) return view`<p role="status">Loading the mapping…</p>`;

  /** @param {string} target */
  const rowErrors = (target) =>
    ((errors && errors.lines) || []).filter(
      (line) => line.startsWith(`fields.${target}.`) || line.startsWith(`fields.${target}:`),
    );
  const atsName = typeLabel(connector.type);
  return view`<section class="card" aria-labelledby="mapping-title">
    <h2 id="mapping-title">Job mapping</h2>
    <p>Each vacancy field on the platform is taken from a field of the ${atsName} job, or set to a fixed text.
      Version ${current.version}, saved ${formatTime(current.createdAt)}.</p>
    <datalist id="source-paths">${paths.map((p) => view`<option value=${p} />`)}</datalist>
    <form onSubmit=${save} novalidate>
      <table class="mapping">
        <thead><tr><th scope="col">Platform field</th><th scope="col">Taken from</th>
          <th scope="col">${atsName} field or fixed text</th><th scope="col">When empty, use</th>
          <th scope="col"><span class="visually-hidden">Remove</span></th></tr></thead>
        <tbody>${rows.map(
          (row) => view`<${MappingRowView} key=${row.key} row=${row} atsName=${atsName}
            problems=${rowErrors(row.target.trim())} update=${update} remove=${removeRow} />`,
        )}</tbody>
      </table>
      <div class="actions"><button type="button" onClick=${addRow}>Add a field</button></div>
      <${PublishFieldset} publish=${publish} setPublish=${setPublish} />
      ${errors ? view`<${MappingProblems} errors=${errors} />` : null}
      ${saved ? view`<p class="success" role="status">${saved}</p>` : null}
      <div class="actions">
        <button type="submit" class="primary" disabled=${Boolean(busy)}>${busy === 'save' ? 'Saving…' : 'Save mapping'}</button>
        <button type="button" onClick=${runPreview} disabled=${Boolean(busy)}>${busy === 'preview' ? 'Loading the preview…' : 'Preview with live vacancies'}</button>
        <button type="button" class="quiet" onClick=${() => {
          show(current);
          setErrors(null);
        }} disabled=${Boolean(busy)}>Undo changes</button>
      </div>
    </form>
    <div aria-live="polite">${preview ? view`<${MappingPreview} preview=${preview} />` : null}</div>
  </section>`;
}

/**
 * One platform field: its name (fixed for the required ones), where it comes from, and its fallback.
 * @param {{ row: MappingRow, atsName: string, problems: string[],
 *   update: (key: number, change: Partial<MappingRow>) => void, remove: (key: number) => void }} props
 */
function MappingRowView({ row, atsName, problems, update, remove }) {
  const required = REQUIRED.includes(row.target) && row.key < FIRST_ADDED_KEY;
  const label = FIELD_LABELS[row.target] || row.target || 'new field';
  return view`<tr class=${problems.length ? 'row-invalid' : ''}>
            <th scope="row">${
              required
                ? view`${label}<span class="hint"> (required)</span>`
                : view`<input id=${`target-${row.key}`} type="text" class="short" value=${row.target} aria-label="Name of the extra field"
                  spellcheck="false" onInput=${(/** @type {Event} */ e) => update(row.key, { target: valueOf(e) })} />`
            }</th>
            <td><select aria-label=${`Where ${label} comes from`} value=${row.kind}
              onChange=${(/** @type {Event} */ e) => update(row.key, { kind: /** @type {MappingRow['kind']} */ (valueOf(e)) })}>
              <option value="from">${atsName} field</option><option value="constant">Fixed text</option></select></td>
            <td>${
              row.kind === 'from'
                ? view`<input type="text" list="source-paths" value=${row.from} aria-label=${`${atsName} field for ${label}`}
                  spellcheck="false" aria-invalid=${problems.length ? 'true' : undefined}
                  aria-describedby=${problems.length ? `row-problem-${row.key}` : undefined}
                  onInput=${(/** @type {Event} */ e) => update(row.key, { from: valueOf(e) })} />`
                : view`<input type="text" value=${row.constant} aria-label=${`Fixed text for ${label}`}
                  aria-invalid=${problems.length ? 'true' : undefined}
                  onInput=${(/** @type {Event} */ e) => update(row.key, { constant: valueOf(e) })} />`
            }
              ${problems.length ? view`<span class="row-problem" id=${`row-problem-${row.key}`}>${problems.join(' ')}</span>` : null}</td>
            <td>${
              row.kind === 'from'
                ? view`<input type="text" value=${row.fallback} aria-label=${`Text to use when ${label} is empty`}
                  onInput=${(/** @type {Event} */ e) => update(row.key, { fallback: valueOf(e) })} />`
                : null
            }</td>
            <td>${
              required
                ? null
                : view`<button type="button" class="quiet" onClick=${() => remove(row.key)}
                aria-label=${`Remove ${label}`}>Remove</button>`
            }</td>
          </tr>`;
}

/** @param {{ publish: PublishFilters, setPublish: (publish: PublishFilters) => void }} props */
function PublishFieldset({ publish, setPublish }) {
  return view`<fieldset>
        <legend>Publish only (optional)</legend>
        <div class="field"><label for="publish-statuses">Statuses</label>
          <p class="hint" id="publish-statuses-hint">Comma-separated; empty publishes every open vacancy.</p>
          <input id="publish-statuses" type="text" aria-describedby="publish-statuses-hint" value=${publish.statuses}
            onInput=${(/** @type {Event} */ e) => setPublish({ ...publish, statuses: valueOf(e) })} /></div>
        <div class="field"><label for="publish-locations">Locations</label>
          <p class="hint" id="publish-locations-hint">Comma-separated; empty publishes every location.</p>
          <input id="publish-locations" type="text" aria-describedby="publish-locations-hint" value=${publish.locations}
            onInput=${(/** @type {Event} */ e) => setPublish({ ...publish, locations: valueOf(e) })} /></div>
      </fieldset>`;
}

/** @param {{ errors: MappingErrors }} props */
function MappingProblems({ errors }) {
  return view`<div class="problem" role="alert" id="mapping-problem"><p class="problem-title">${errors.title}</p>
            ${errors.error ? view`<p>${errors.error.message}</p>` : null}
            <ul>${errors.lines.map((line) => view`<li>${line}</li>`)}</ul></div>`;
}
