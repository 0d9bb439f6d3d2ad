import type {
  ApplicationQuestion,
  EducationEntry,
  EmploymentHistoryEntry,
  PostalAddress,
} from '../ats-a.records';
import { validation } from '../sandbox.error';

/** Candidate fields a client may send; required ones are checked on create and may not be blanked by a patch. */
export interface CandidateInput {
  Title?: string | null;
  FirstName?: string;
  Surname?: string;
  Email?: string;
  Telephone?: string | null;
  Mobile?: string | null;
  Address?: PostalAddress | null;
  EmploymentHistory?: EmploymentHistoryEntry[];
  Education?: EducationEntry[];
}

export interface ApplicationInput {
  CandidateId: number;
  VacancyId: number;
  Questions: ApplicationQuestion[];
}

const CANDIDATE_FIELDS = [
  'Title',
  'FirstName',
  'Surname',
  'Email',
  'Telephone',
  'Mobile',
  'Address',
  'EmploymentHistory',
  'Education',
] as const;
const REQUIRED_CANDIDATE_FIELDS = ['FirstName', 'Surname', 'Email'] as const;
const ADDRESS_FIELDS = ['Address1', 'Address2', 'Town', 'County', 'PostCode', 'Country'] as const;
const EMPLOYMENT_FIELDS = ['Employer', 'JobTitle', 'StartDate', 'EndDate', 'Description'] as const;
const EDUCATION_FIELDS = ['Establishment', 'Qualification', 'Subject', 'StartDate', 'EndDate'] as const;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
// Year-month (as CVs give them) or a full ISO date.
const PARTIAL_DATE = /^\d{4}-\d{2}(-\d{2}(T[\d:.]+(Z|[+-]\d{2}:?\d{2})?)?)?$/;

function asObject(value: unknown, where: string): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw validation(`${where} must be an object`);
  return value as Record<string, unknown>;
}

function optionalString(value: unknown, where: string): string | null {
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string') throw validation(`${where} must be a string or null`);
  return value;
}

function onlyKnownKeys(input: Record<string, unknown>, known: readonly string[], where: string): void {
  // choice: unknown fields are a 400, so a misspelt field fails in tests instead of vanishing in production.
  for (const key of Object.keys(input)) {
    if (!known.includes(key)) throw validation(`${where}: unknown field ${key}`);
  }
}

function entries<K extends string>(
  value: unknown,
  fields: readonly K[],
  dateFields: readonly K[],
  where: string,
): Record<K, string | null>[] {
  if (!Array.isArray(value)) throw validation(`${where} must be an array`);
  return value.map((raw, i) => {
    const item = asObject(raw, `${where}[${i}]`);
    onlyKnownKeys(item, fields, `${where}[${i}]`);
    const result = {} as Record<K, string | null>;
    for (const field of fields) {
      const v = optionalString(item[field], `${where}[${i}].${field}`);
      if (v !== null && dateFields.includes(field) && !PARTIAL_DATE.test(v)) {
        throw validation(`${where}[${i}].${field} must be YYYY-MM or an ISO date`);
      }
      result[field] = v;
    }
    return result;
  });
}

/** Validates a candidate body; `partial` for PATCH (only the changed fields). */
export function validateCandidate(body: unknown, partial: boolean): CandidateInput {
  const input = asObject(body, 'Body');
  onlyKnownKeys(input, CANDIDATE_FIELDS, 'Candidate');
  const result: CandidateInput = {};
  for (const field of REQUIRED_CANDIDATE_FIELDS) {
    const value = input[field];
    if (value === undefined && partial) continue;
    if (typeof value !== 'string' || value.trim() === '') throw validation(`${field} is required`);
    result[field] = value;
  }
  if (result.Email !== undefined && !EMAIL.test(result.Email))
    throw validation('Email is not a valid address');
  for (const field of ['Title', 'Telephone', 'Mobile'] as const) {
    if (input[field] !== undefined) result[field] = optionalString(input[field], field);
  }
  if (input['Address'] !== undefined) {
    if (input['Address'] === null) result.Address = null;
    else {
      const address = asObject(input['Address'], 'Address');
      onlyKnownKeys(address, ADDRESS_FIELDS, 'Address');
      result.Address = Object.fromEntries(
        ADDRESS_FIELDS.map((f) => [f, optionalString(address[f], `Address.${f}`)]),
      ) as unknown as PostalAddress;
    }
  }
  if (input['EmploymentHistory'] !== undefined) {
    result.EmploymentHistory = entries(
      input['EmploymentHistory'],
      EMPLOYMENT_FIELDS,
      ['StartDate', 'EndDate'],
      'EmploymentHistory',
    );
  }
  if (input['Education'] !== undefined) {
    result.Education = entries(input['Education'], EDUCATION_FIELDS, ['StartDate', 'EndDate'], 'Education');
  }
  return result;
}

function linkId(value: unknown, where: string): number {
  const link = asObject(value, where);
  const id = link['Id'];
  if (!Number.isInteger(id)) throw validation(`${where}.Id must be an integer`);
  return id as number;
}

function validateQuestions(value: unknown): ApplicationQuestion[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) throw validation('Questions must be an array');
  return value.map((raw, i) => {
    const item = asObject(raw, `Questions[${i}]`);
    onlyKnownKeys(item, ['Question', 'Answer'], `Questions[${i}]`);
    if (typeof item['Question'] !== 'string' || item['Question'] === '')
      throw validation(`Questions[${i}].Question is required`);
    return { Question: item['Question'], Answer: optionalString(item['Answer'], `Questions[${i}].Answer`) };
  });
}

export function validateApplication(body: unknown): ApplicationInput {
  const input = asObject(body, 'Body');
  onlyKnownKeys(input, ['Candidate', 'Vacancy', 'Questions'], 'Application');
  return {
    CandidateId: linkId(input['Candidate'], 'Candidate'),
    VacancyId: linkId(input['Vacancy'], 'Vacancy'),
    Questions: validateQuestions(input['Questions']),
  };
}

/** PATCH of an application carries the changed answers only; links cannot move. */
export function validateApplicationPatch(body: unknown): ApplicationQuestion[] {
  const input = asObject(body, 'Body');
  onlyKnownKeys(input, ['Questions'], 'Application patch');
  return validateQuestions(input['Questions']);
}
