// The "Mapping" tab: how the ATS's job fields become the platform's vacancy fields; edit, save, preview.
import { useEffect, useState } from 'preact/hooks';
import { api, BASE } from './api.js';
import { formatTime, view, Problem, useApp } from './ui.js';

const REQUIRED = ['title', 'location', 'description', 'requirements', 'status'];
const FIELD_LABELS = {
  title: 'Title',
  location: 'Location',
  description: 'Description',
  requirements: 'Requirements',
  status: 'Status',
};

let sourcePaths = null;
const loadSourcePaths = () =>
  (sourcePaths ||= fetch(`${BASE}/assets/source-paths.json`)
    .then((r) => (r.ok ? r.json() : {}))
    .catch(() => ({})));

function toRows(mapping) {
  const fields = (mapping && mapping.fields) || {};
  const names = [...REQUIRED, ...Object.keys(fields).filter((n) => !REQUIRED.includes(n))];
  return names.map((target, index) => {
    const source = fields[target] || { from: '' };
    return 'constant' in source
      ? { key: index, target, kind: 'constant', from: '', fallback: '', constant: source.constant }
      : {
          key: index,
          target,
          kind: 'from',
          from: source.from || '',
          fallback: source.default || '',
          constant: '',
        };
  });
}

const list = (text) =>
  text
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);

function toMapping(rows, publish) {
  const fields = {};
  for (const row of rows) {
    const target = row.target.trim();
    fields[target] =
      row.kind === 'constant'
        ? { constant: row.constant }
        : { from: row.from.trim(), ...(row.fallback ? { default: row.fallback } : {}) };
  }
  const statuses = list(publish.statuses);
  const locations = list(publish.locations);
  const mapping = { fields };
  if (statuses.length || locations.length) {
    mapping.publish = {
      ...(statuses.length ? { statuses } : {}),
      ...(locations.length ? { locations } : {}),
    };
  }
  return mapping;
}

/** Client-side checks the server cannot phrase per row: empty or repeated target names. */
function localProblems(rows) {
  const problems = [];
  const seen = new Set();
  for (const row of rows) {
    const target = row.target.trim();
    if (!target) problems.push('An extra field has no name: give it one or remove the row.');
    else if (seen.has(target)) problems.push(`The field “${target}” appears twice.`);
    seen.add(target);
  }
  return problems;
}

export function MappingTab({ connector }) {
  const { announce } = useApp();
  const [current, setCurrent] = useState(null);
  const [rows, setRows] = useState([]);
  const [publish, setPublish] = useState({ statuses: '', locations: '' });
  const [loadError, setLoadError] = useState(null);
  const [errors, setErrors] = useState(null); // {title, error, lines}
  const [saved, setSaved] = useState(null);
  const [busy, setBusy] = useState(null);
  const [preview, setPreview] = useState(null); // {vacancies} | {error}
  const [paths, setPaths] = useState([]);
  const [nextKey, setNextKey] = useState(1000);

  const show = (view) => {
    setCurrent(view);
    setRows(toRows(view.mapping));
    const p = view.mapping.publish || {};
    setPublish({ statuses: (p.statuses || []).join(', '), locations: (p.locations || []).join(', ') });
  };
  useEffect(() => {
    api('GET', `/connectors/${encodeURIComponent(connector.id)}/mapping`)
      .then(show)
      .catch(setLoadError);
    void loadSourcePaths().then((all) => setPaths(all[connector.type] || []));
  }, [connector.id]);

  const update = (key, change) => setRows(rows.map((row) => (row.key === key ? { ...row, ...change } : row)));
  const addRow = () => {
    setRows([...rows, { key: nextKey, target: '', kind: 'from', from: '', fallback: '', constant: '' }]);
    setNextKey(nextKey + 1);
    setTimeout(() => document.getElementById(`target-${nextKey}`)?.focus(), 0);
  };
  const removeRow = (key) => setRows(rows.filter((row) => row.key !== key));

  const checkLocally = () => {
    const problems = localProblems(rows);
    if (problems.length) {
      setErrors({ title: 'The mapping needs a fix', lines: problems });
      return false;
    }
    return true;
  };
  const save = async (event) => {
    event.preventDefault();
    setErrors(null);
    setSaved(null);
    if (!checkLocally()) return;
    setBusy('save');
    try {
      const view = await api(
        'PUT',
        `/connectors/${encodeURIComponent(connector.id)}/mapping`,
        toMapping(rows, publish),
      );
      show(view);
      const text = `Mapping saved as version ${view.version}.`;
      setSaved(text);
      announce(text);
    } catch (failure) {
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
      const body = await api('POST', `/connectors/${encodeURIComponent(connector.id)}/mapping/preview`, {
        mapping: toMapping(rows, publish),
        limit: 5,
      });
      const vacancies = Array.isArray(body.vacancies) ? body.vacancies : [];
      setPreview({ vacancies });
      announce(`Preview: ${vacancies.length} vacancies.`);
    } catch (failure) {
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

  const rowErrors = (target) =>
    ((errors && errors.lines) || []).filter(
      (line) => line.startsWith(`fields.${target}.`) || line.startsWith(`fields.${target}:`),
    );
  const atsName = connector.type === 'ats-a' ? 'ATS-A' : 'ATS-B';
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
        <tbody>${rows.map((row) => {
          const required = REQUIRED.includes(row.target) && row.key < 1000;
          const label = FIELD_LABELS[row.target] || row.target || 'new field';
          const problems = rowErrors(row.target.trim());
          return view`<tr key=${row.key} class=${problems.length ? 'row-invalid' : ''}>
            <th scope="row">${
              required
                ? view`${label}<span class="hint"> (required)</span>`
                : view`<input id=${`target-${row.key}`} type="text" class="short" value=${row.target} aria-label="Name of the extra field"
                  spellcheck="false" onInput=${(e) => update(row.key, { target: e.currentTarget.value })} />`
            }</th>
            <td><select aria-label=${`Where ${label} comes from`} value=${row.kind}
              onChange=${(e) => update(row.key, { kind: e.currentTarget.value })}>
              <option value="from">${atsName} field</option><option value="constant">Fixed text</option></select></td>
            <td>${
              row.kind === 'from'
                ? view`<input type="text" list="source-paths" value=${row.from} aria-label=${`${atsName} field for ${label}`}
                  spellcheck="false" aria-invalid=${problems.length ? 'true' : undefined}
                  aria-describedby=${problems.length ? `row-problem-${row.key}` : undefined}
                  onInput=${(e) => update(row.key, { from: e.currentTarget.value })} />`
                : view`<input type="text" value=${row.constant} aria-label=${`Fixed text for ${label}`}
                  aria-invalid=${problems.length ? 'true' : undefined}
                  onInput=${(e) => update(row.key, { constant: e.currentTarget.value })} />`
            }
              ${problems.length ? view`<span class="row-problem" id=${`row-problem-${row.key}`}>${problems.join(' ')}</span>` : null}</td>
            <td>${
              row.kind === 'from'
                ? view`<input type="text" value=${row.fallback} aria-label=${`Text to use when ${label} is empty`}
                  onInput=${(e) => update(row.key, { fallback: e.currentTarget.value })} />`
                : null
            }</td>
            <td>${
              required
                ? null
                : view`<button type="button" class="quiet" onClick=${() => removeRow(row.key)}
                aria-label=${`Remove ${label}`}>Remove</button>`
            }</td>
          </tr>`;
        })}</tbody>
      </table>
      <div class="actions"><button type="button" onClick=${addRow}>Add a field</button></div>
      <fieldset>
        <legend>Publish only (optional)</legend>
        <div class="field"><label for="publish-statuses">Statuses</label>
          <p class="hint" id="publish-statuses-hint">Comma-separated; empty publishes every open vacancy.</p>
          <input id="publish-statuses" type="text" aria-describedby="publish-statuses-hint" value=${publish.statuses}
            onInput=${(e) => setPublish({ ...publish, statuses: e.currentTarget.value })} /></div>
        <div class="field"><label for="publish-locations">Locations</label>
          <p class="hint" id="publish-locations-hint">Comma-separated; empty publishes every location.</p>
          <input id="publish-locations" type="text" aria-describedby="publish-locations-hint" value=${publish.locations}
            onInput=${(e) => setPublish({ ...publish, locations: e.currentTarget.value })} /></div>
      </fieldset>
      ${
        errors
          ? view`<div class="problem" role="alert" id="mapping-problem"><p class="problem-title">${errors.title}</p>
            ${errors.error ? view`<p>${errors.error.message}</p>` : null}
            <ul>${errors.lines.map((line) => view`<li>${line}</li>`)}</ul></div>`
          : null
      }
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
    <div aria-live="polite">${preview ? view`<${Preview} preview=${preview} />` : null}</div>
  </section>`;
}

/** ATS texts are often HTML; the preview shows their words (parsed inertly, never inserted as HTML). */
function plainText(value) {
  if (!value) return '';
  const separated = String(value).replace(/<\/(li|p|div|h\d)>|<br\s*\/?>/gi, ' · ');
  const text = new DOMParser().parseFromString(separated, 'text/html').body.textContent || '';
  return text
    .replace(/\s+/g, ' ')
    .replace(/^[\s·]+|[\s·]+$/g, '')
    .replace(/(\s·)+/g, ' ·');
}

const sentence = (text) => (/[.!?]$/.test(text) ? text : `${text}.`);

function Preview({ preview }) {
  if (preview.error) {
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
