import { type MappingVocabulary, REQUIRED_TARGETS } from './job-mapping.types';

export const MAX_EXTRA_FIELDS = 50;
const TARGET_NAME = /^[A-Za-z][A-Za-z0-9_]{0,63}$/;
const MAX_TEXT = 2_000;

/**
 * Every problem of a mapping, each prefixed with its path (`fields.title.from: …`); empty when valid.
 * Takes `unknown` because it checks shape too: it is the gate for mappings typed by admins.
 */
export function validateJobMapping(vocabulary: MappingVocabulary, mapping: unknown): string[] {
  if (!isRecord(mapping)) return ['mapping: must be an object'];
  const errors: string[] = [];
  for (const key of Object.keys(mapping)) {
    if (key !== 'fields' && key !== 'publish') errors.push(`${key}: unknown property`);
  }
  errors.push(...validateFields(vocabulary, mapping.fields));
  if (mapping.publish !== undefined) errors.push(...validatePublish(mapping.publish));
  return errors;
}

function validateFields(vocabulary: MappingVocabulary, fields: unknown): string[] {
  if (!isRecord(fields)) return ['fields: must be an object'];
  const errors: string[] = [];
  for (const target of REQUIRED_TARGETS) {
    if (!(target in fields)) errors.push(`fields.${target}: is required`);
  }
  const names = Object.keys(fields);
  if (names.length > REQUIRED_TARGETS.length + MAX_EXTRA_FIELDS) {
    errors.push(`fields: at most ${MAX_EXTRA_FIELDS} extra fields`);
  }
  for (const name of names) {
    if (!TARGET_NAME.test(name)) {
      errors.push(`fields.${name}: a target name is a letter then letters, digits or _ (64 at most)`);
    }
    errors.push(...validateSource(vocabulary, `fields.${name}`, fields[name]));
  }
  return errors;
}

function validateSource(vocabulary: MappingVocabulary, path: string, source: unknown): string[] {
  if (!isRecord(source)) return [`${path}: must be {from, default?} or {constant}`];
  const keys = Object.keys(source);
  if ('constant' in source) {
    const errors = keys.filter((key) => key !== 'constant').map((key) => `${path}.${key}: unknown property`);
    return [...errors, ...validateText(`${path}.constant`, source.constant)];
  }
  if (!('from' in source)) return [`${path}: must have "from" or "constant"`];
  const errors = keys
    .filter((key) => key !== 'from' && key !== 'default')
    .map((key) => `${path}.${key}: unknown property`);
  if (typeof source.from !== 'string' || source.from === '') {
    errors.push(`${path}.from: must be a non-empty string`);
  } else if (!vocabulary.sourcePaths.has(source.from)) {
    errors.push(`${path}.from: unknown source path "${source.from}" for ${vocabulary.atsType}`);
  }
  if (source.default !== undefined) errors.push(...validateText(`${path}.default`, source.default));
  return errors;
}

function validatePublish(publish: unknown): string[] {
  if (!isRecord(publish)) return ['publish: must be an object'];
  const errors: string[] = [];
  for (const key of Object.keys(publish)) {
    if (key !== 'statuses' && key !== 'locations') {
      errors.push(`publish.${key}: unknown property`);
      continue;
    }
    const list = publish[key];
    if (!Array.isArray(list)) {
      errors.push(`publish.${key}: must be an array of strings`);
      continue;
    }
    list.forEach((item: unknown, index) => errors.push(...validateText(`publish.${key}.${index}`, item)));
  }
  return errors;
}

function validateText(path: string, value: unknown): string[] {
  if (typeof value !== 'string') return [`${path}: must be a string`];
  return value.length > MAX_TEXT ? [`${path}: at most ${MAX_TEXT} characters`] : [];
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
