// @ts-check
// The "+" set-up flows: choose the ATS, then its form as its adapter declares it (GET /connector-types):
// credentials tested, then saved (client-credentials), or saved, then authorized by a login (interactive-login).
import { useState } from 'preact/hooks';
import { api } from './api.js';
import { setupProblem } from './setup-problem.js';
import {
  allConnectorTypes,
  checkedOf,
  Field,
  Link,
  lowerFirst,
  PageTitle,
  Problem,
  useApp,
  valueOf,
  view,
} from './ui.js';

/** @typedef {import('./api.js').ApiError} ApiError */

/** @typedef {import('./admin-api').ConnectorResponse} Connector */
/** @typedef {import('./admin-api').ConnectorTypeResponse} ConnectorType */
/** @typedef {import('./admin-api').SetupFieldResponse} SetupField */
/** @typedef {import('./ui.js').FieldInputProps} FieldInputProps */
/** @typedef {Record<string, string | boolean>} FormValues */
/** @typedef {{ code?: string, message?: string }} SetupError */
/** @typedef {{ ok: boolean, error?: SetupError }} TestResult */
/** @typedef {{ error: SetupError, fields: string[] }} SetupFailure */

export function ChooseType() {
  const { navigate } = useApp();
  const types = allConnectorTypes();
  const [type, setType] = useState(types.length ? types[0].type : '');
  return view`<main id="main" class="narrow">
    <p class="crumbs"><${Link} to="/">Connectors<//> › Add a connector</p>
    <${PageTitle}>Add a connector<//>
    <form class="card" onSubmit=${(/** @type {Event} */ e) => {
      e.preventDefault();
      if (type) navigate(`/connectors/new/${encodeURIComponent(type)}`);
    }}>
      <fieldset>
        <legend>Which ATS do you use?</legend>
        ${types.length === 0 ? view`<p>No ATS can be connected right now: the connector service lists none.</p>` : null}
        ${types.map(
          (t) => view`<div class="choice">
            <input type="radio" id=${`type-${t.type}`} name="type" value=${t.type} checked=${type === t.type}
              onChange=${() => setType(t.type)} aria-describedby=${`type-${t.type}-hint`} />
            <label for=${`type-${t.type}`}>${t.label}</label>
            <p class="hint" id=${`type-${t.type}-hint`}>${t.summary}</p>
          </div>`,
        )}
      </fieldset>
      <div class="actions">
        <button type="submit" class="primary" disabled=${!type}>Next</button>
        <${Link} to="/">Cancel<//>
      </div>
    </form>
  </main>`;
}

/** @param {SetupField} field */
function initialValue(field) {
  if (field.kind === 'boolean') return field.default === true;
  if (field.kind === 'choice')
    return String(field.default ?? (field.choices && field.choices[0].value) ?? '');
  if (Array.isArray(field.default)) return field.default.join(', ');
  return field.default === undefined ? '' : String(field.default);
}

/**
 * A field's value as the API takes it; undefined when left empty.
 * @param {SetupField} field
 * @param {string | boolean} value
 * @returns {unknown}
 */
function requestValue(field, value) {
  if (field.kind === 'boolean') return value === true;
  const text = String(value);
  if (field.kind === 'secret') return text === '' ? undefined : text;
  const trimmed = text.trim();
  if (trimmed === '') return undefined;
  if (field.kind === 'number') return Number(trimmed);
  if (field.kind === 'list')
    return trimmed
      .split(',')
      .map((item) => item.trim())
      .filter(Boolean);
  return trimmed;
}

/** "a, b and c" */
const listed = (/** @type {string[]} */ items) =>
  items.length < 2 ? items.join('') : `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;

/** @param {{ type: ConnectorType }} props */
export function NewConnector({ type }) {
  const { navigate, setFlash } = useApp();
  const fields = type.fields;
  const [name, setName] = useState(type.label);
  const [values, setValues] = useState(
    /** @type {FormValues} */ (Object.fromEntries(fields.map((f) => [f.name, initialValue(f)]))),
  );
  const [busy, setBusy] = useState(/** @type {'test' | 'save' | null} */ (null));
  // The last test: its answer and the request it tested.
  const [tested, setTested] = useState(/** @type {(TestResult & { body: string }) | null} */ (null));
  const [problem, setProblem] = useState(/** @type {SetupFailure | null} */ (null));
  const testsFirst = type.flow === 'client-credentials';

  /** @type {{ config: Record<string, unknown>, options?: Record<string, unknown> }} */
  const request = { config: {} };
  for (const field of fields) {
    const value = requestValue(field, values[field.name]);
    if (value === undefined) continue;
    if (field.in === 'options') request.options = { ...request.options, [field.name]: value };
    else request.config[field.name] = value;
  }
  const body = JSON.stringify(request);
  const testedOk = Boolean(tested && tested.ok && tested.body === body);
  const missing = fields.filter(
    (f) => f.required && f.kind !== 'boolean' && requestValue(f, values[f.name]) === undefined,
  );
  const set = (/** @type {string} */ field, /** @type {string | boolean} */ value) =>
    setValues({ ...values, [field]: value });
  const failed = (/** @type {SetupError} */ error) =>
    setProblem({ error, fields: setupProblem(error, type).fields });

  const test = async () => {
    setProblem(null);
    setTested(null);
    if (missing.length) {
      return setProblem({
        error: {
          code: 'VALIDATION_FAILED',
          message: `Fill in the ${listed(missing.map((f) => lowerFirst(f.label)))}, then test again.`,
        },
        fields: missing.map((f) => f.name),
      });
    }
    // The form's own status region below says "Testing…" and the outcome (announced once, not twice).
    setBusy('test');
    try {
      /** @type {TestResult} */
      const result = await api('POST', '/connectors/test', { type: type.type, ...request });
      setTested({ ...result, body });
      if (result.ok) setTimeout(() => document.getElementById('save-connector')?.focus(), 0);
      else if (result.error) failed(result.error);
    } catch (caught) {
      failed(/** @type {ApiError} */ (caught));
    } finally {
      setBusy(null);
    }
  };
  const save = async () => {
    setProblem(null);
    if (missing.length || !name.trim()) {
      return setProblem({
        error: { code: 'VALIDATION_FAILED', message: 'Fill in every field, then save.' },
        fields: missing.map((f) => f.name),
      });
    }
    setBusy('save');
    try {
      /** @type {Connector} */
      const connector = await api('POST', '/connectors', { type: type.type, name: name.trim(), ...request });
      setFlash(
        connector.status === 'connected'
          ? {
              kind: 'created',
              text: `Connection successful: “${connector.name}” is connected to ${type.label}.`,
            }
          : {
              kind: 'saved',
              text: `Saved “${connector.name}”. Now authorize access: log in to ${type.label}.`,
            },
      );
      navigate(`/connectors/${connector.id}`);
    } catch (caught) {
      setTested(null);
      failed(/** @type {ApiError} */ (caught));
    } finally {
      setBusy(null);
    }
  };
  const onSubmit = (/** @type {SubmitEvent} */ event) => {
    event.preventDefault();
    const intent = event.submitter && /** @type {HTMLButtonElement} */ (event.submitter).value;
    return intent === 'save' || !testsFirst ? save() : test();
  };
  const invalid = (/** @type {string} */ field) => Boolean(problem && problem.fields.includes(field));
  const info = problem ? setupProblem(problem.error, type) : null;

  return view`<main id="main" class="narrow">
    <p class="crumbs"><${Link} to="/">Connectors<//> › <${Link} to="/connectors/new">Add a connector<//> › ${type.label}</p>
    <${PageTitle}>Connect ${type.label}<//>
    <p>${type.intro}</p>
    <form class="card" onSubmit=${onSubmit} novalidate>
      <${Field} id="name" label="Connector name" hint="How this connector is called here.">
        ${(/** @type {FieldInputProps} */ p) => view`<input ...${p} name="name" type="text" value=${name} onInput=${(/** @type {Event} */ e) => setName(valueOf(e))} required />`}
      <//>
      ${fields.map(
        (
          field,
        ) => view`<${SetupInput} field=${field} value=${values[field.name]} invalid=${invalid(field.name)}
        onChange=${(/** @type {string | boolean} */ value) => set(field.name, value)} />`,
      )}
      <div aria-live="polite">
        ${info && problem ? view`<${Problem} id="setup-problem" title=${testsFirst ? info.title : 'Could not save the connector'} error=${problem.error} advice=${info.advice} />` : null}
        ${testedOk ? view`<p class="success" role="status">The connection works: ${type.label} accepted these credentials. Choose Save to add the connector.</p>` : null}
        ${busy === 'test' ? view`<p role="status">Testing the connection…</p>` : null}
        ${busy === 'save' && testsFirst ? view`<p role="status">Saving…</p>` : null}
      </div>
      <div class="actions">
        ${testsFirst ? view`<button type="submit" name="intent" value="test" class=${testedOk ? '' : 'primary'} disabled=${Boolean(busy)}>Test connection</button>` : null}
        <button type="submit" name="intent" value="save" id="save-connector" class=${testedOk || !testsFirst ? 'primary' : ''}
          disabled=${Boolean(busy) || (!testsFirst && !name.trim())}>${busy === 'save' && !testsFirst ? 'Saving…' : 'Save'}</button>
        <${Link} to="/">Cancel<//>
      </div>
    </form>
  </main>`;
}

/**
 * One field of the set-up form, as its kind asks to be typed.
 * @param {{ field: SetupField, value: string | boolean, invalid: boolean,
 *   onChange: (value: string | boolean) => void }} props
 */
function SetupInput({ field, value, invalid, onChange }) {
  const { name, label, help } = field;
  const text = (/** @type {Event} */ e) => onChange(valueOf(e));
  if (field.kind === 'boolean') {
    return view`<div class="choice">
      <input type="checkbox" id=${name} name=${name} checked=${value === true}
        onChange=${(/** @type {Event} */ e) => onChange(checkedOf(e))} aria-describedby=${help ? `${name}-hint` : undefined} />
      <label for=${name}>${label}</label>
      ${help ? view`<p class="hint" id=${`${name}-hint`}>${help}</p>` : null}
    </div>`;
  }
  if (field.kind === 'choice') {
    return view`<fieldset>
      <legend>${label}</legend>
      ${(field.choices || []).map((choice) => {
        const id = `${name}-${choice.value}`;
        return view`<div class="choice">
          <input type="radio" id=${id} name=${name} value=${choice.value} checked=${value === choice.value}
            onChange=${() => onChange(choice.value)} aria-describedby=${choice.help ? `${id}-hint` : undefined} />
          <label for=${id}>${choice.label}</label>
          ${choice.help ? view`<p class="hint" id=${`${id}-hint`}>${choice.help}</p>` : null}
        </div>`;
      })}
    </fieldset>`;
  }
  const suffix = field.forbiddenSuffix;
  const endsWrong =
    Boolean(suffix) &&
    new RegExp(`${String(suffix).replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}/?$`, 'i').test(
      String(value).trim(),
    );
  /** @type {Record<string, string>} */
  const attributes =
    field.kind === 'url'
      ? { type: 'url', inputmode: 'url', autocomplete: 'url', spellcheck: 'false' }
      : field.kind === 'secret'
        ? { type: 'password', autocomplete: 'new-password' }
        : field.kind === 'number'
          ? { type: 'number', inputmode: 'numeric' }
          : { type: 'text', autocomplete: 'off', spellcheck: 'false' };
  return view`<${Field} id=${name} label=${label} invalid=${invalid} problemId="setup-problem"
      hint=${field.kind === 'list' ? `${help ? `${help} ` : ''}Separate several with commas.` : help}>
      ${(
        /** @type {FieldInputProps} */ p,
      ) => view`<input ...${p} ...${attributes} name=${name} placeholder=${field.placeholder}
        value=${String(value)} onInput=${text} required=${field.required} />`}
    <//>
    ${endsWrong ? view`<p class="field-warning" role="status">Leave out “${suffix}” at the end: enter only your system's address.</p>` : null}`;
}
