import { AtsBError, type ValidationMessage } from './ats-b.error';
import type { CandidateAddress } from './sandbox.types';

/** Field rules from ats-b.md: lengths, required fields, allowed keys. Everything else is an unknown field. */
type Rule =
  | { kind: 'string'; max: number }
  | { kind: 'date' }
  | { kind: 'integer' }
  | { kind: 'address' }
  | { kind: 'ref' };

const ADDRESS_KEYS: Record<keyof CandidateAddress, Rule> = {
  address1: { kind: 'string', max: 100 },
  address2: { kind: 'string', max: 100 },
  city: { kind: 'string', max: 40 },
  state: { kind: 'string', max: 50 },
  zip: { kind: 'string', max: 15 },
  countryID: { kind: 'integer' },
};

export interface EntityRules {
  entity: string;
  fields: Record<string, Rule>;
  requiredOnInsert: readonly string[];
}

export const CANDIDATE_RULES: EntityRules = {
  entity: 'Candidate',
  fields: {
    firstName: { kind: 'string', max: 50 },
    lastName: { kind: 'string', max: 50 },
    name: { kind: 'string', max: 100 },
    email: { kind: 'string', max: 100 },
    phone: { kind: 'string', max: 20 },
    mobile: { kind: 'string', max: 20 },
    address: { kind: 'address' },
    status: { kind: 'string', max: 100 },
    source: { kind: 'string', max: 200 },
  },
  requiredOnInsert: ['name', 'status'],
};

export const WORK_HISTORY_RULES: EntityRules = {
  entity: 'CandidateWorkHistory',
  fields: {
    candidate: { kind: 'ref' },
    companyName: { kind: 'string', max: 100 },
    title: { kind: 'string', max: 100 },
    startDate: { kind: 'date' },
    endDate: { kind: 'date' },
    comments: { kind: 'string', max: 4000 },
  },
  requiredOnInsert: ['candidate'],
};

export const EDUCATION_RULES: EntityRules = {
  entity: 'CandidateEducation',
  fields: {
    candidate: { kind: 'ref' },
    school: { kind: 'string', max: 100 },
    degree: { kind: 'string', max: 100 },
    major: { kind: 'string', max: 100 },
    startDate: { kind: 'date' },
    endDate: { kind: 'date' },
  },
  requiredOnInsert: ['candidate'],
};

const msg = (propertyName: string, type: string, detailMessage: string): ValidationMessage => ({
  detailMessage,
  propertyName,
  severity: 'ERROR',
  type,
});

/**
 * Checks a create/update body against the rules; returns it typed as a plain record or throws the 400
 * `errors.cannotPersistEntity` body with one message per problem.
 */
export function validateEntityBody(
  rules: EntityRules,
  body: unknown,
  mode: 'insert' | 'update',
  extra: { allowedStatuses?: readonly string[] } = {},
): Record<string, unknown> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw AtsBError.badRequest(
      `The request body must be a JSON object describing a ${rules.entity}`,
      'errors.malformedRequest',
    );
  }
  const record = body as Record<string, unknown>;
  const messages: ValidationMessage[] = [];
  for (const [key, value] of Object.entries(record)) {
    const rule = rules.fields[key];
    if (rule === undefined) {
      messages.push(msg(key, 'INVALID_FIELD', `Invalid field '${key}' for entity '${rules.entity}'`));
      continue;
    }
    checkValue(key, value, rule, messages);
  }
  if (mode === 'insert') {
    for (const key of rules.requiredOnInsert) {
      const v = record[key];
      if (v === undefined || v === null || v === '')
        messages.push(msg(key, 'REQUIRED_FIELD_MISSING', `${key} is required`));
    }
  } else {
    for (const key of rules.requiredOnInsert) {
      if (key in record && (record[key] === null || record[key] === '')) {
        messages.push(msg(key, 'REQUIRED_FIELD_MISSING', `${key} is required and cannot be cleared`));
      }
    }
  }
  const status = record['status'];
  if (
    extra.allowedStatuses &&
    typeof status === 'string' &&
    status !== '' &&
    !extra.allowedStatuses.includes(status)
  ) {
    messages.push(
      msg(
        'status',
        'INVALID_VALUE',
        `'${status}' is not an allowed status (${extra.allowedStatuses.join(', ')})`,
      ),
    );
  }
  if (messages.length > 0) throw AtsBError.cannotPersist(rules.entity, messages);
  return record;
}

function checkValue(key: string, value: unknown, rule: Rule, messages: ValidationMessage[]): void {
  if (value === null) return;
  switch (rule.kind) {
    case 'string':
      if (typeof value !== 'string') messages.push(msg(key, 'INVALID_TYPE', `${key} must be a string`));
      else if (value.length > rule.max)
        messages.push(msg(key, 'VALUE_TOO_LONG', `${key} exceeds ${rule.max} characters`));
      return;
    case 'date':
      if (typeof value !== 'number' || !Number.isInteger(value))
        messages.push(msg(key, 'INVALID_TYPE', `${key} must be an integer (dates are epoch ms)`));
      return;
    case 'integer':
      if (typeof value !== 'number' || !Number.isInteger(value))
        messages.push(msg(key, 'INVALID_TYPE', `${key} must be an Integer`));
      return;
    case 'ref': {
      const id =
        typeof value === 'object' && value !== null ? (value as Record<string, unknown>)['id'] : undefined;
      if (typeof id !== 'number' || !Number.isInteger(id) || Object.keys(value as object).length !== 1) {
        messages.push(msg(key, 'INVALID_TYPE', `${key} must be {"id": <number>}`));
      }
      return;
    }
    case 'address': {
      if (typeof value !== 'object' || Array.isArray(value)) {
        messages.push(msg(key, 'INVALID_TYPE', `${key} must be an object`));
        return;
      }
      for (const [sub, subValue] of Object.entries(value as Record<string, unknown>)) {
        const subRule = (ADDRESS_KEYS as Record<string, Rule | undefined>)[sub];
        if (subRule === undefined)
          messages.push(msg(`${key}.${sub}`, 'INVALID_FIELD', `Invalid field '${key}.${sub}'`));
        else checkValue(`${key}.${sub}`, subValue, subRule, messages);
      }
      return;
    }
  }
}
