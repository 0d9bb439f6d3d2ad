/**
 * Every ATS-A wire-protocol choice the sandbox makes (see /work/shared/ats-a.md, "choice" marks) lives here,
 * so that a change of mind is one edit.
 */

export interface PickListItem {
  Id: number;
  Description: string;
}

export interface Link {
  Id: number;
}

export const API_PREFIX = '/api';
export const ADMIN_PREFIX = '/__sandbox';

/** Entities reachable through `POST /api/{plural}/search`, with their route prefix and id field. */
export const SEARCH_ENTITIES = {
  vacancies: { routePrefix: 'Vacancy', idField: 'VacancyId' },
  contacts: { routePrefix: 'Contact', idField: 'ContactId' },
  companies: { routePrefix: 'Company', idField: 'CompanyId' },
  candidates: { routePrefix: 'Candidate', idField: 'CandidateId' },
  applications: { routePrefix: 'Application', idField: 'ApplicationId' },
} as const;
export type SearchEntity = keyof typeof SEARCH_ENTITIES;
export const SEARCH_ENTITY_NAMES = Object.keys(SEARCH_ENTITIES) as SearchEntity[];

/** Top-level fields of each record type: the only valid filter routes and ResponseBlocks. */
export const ENTITY_FIELDS: Record<SearchEntity, readonly string[]> = {
  vacancies: [
    'VacancyId',
    'Title',
    'VacancyStatus',
    'Location',
    'Company',
    'Contact',
    'Salary',
    'Description',
    'Requirements',
    'IncludeOnSite',
    'DatePosted',
    'AdvertisingEndDate',
    'CreationDate',
    'ModificationDate',
  ],
  companies: [
    'CompanyId',
    'Name',
    'CompanyStatus',
    'ParentCompany',
    'Address',
    'Website',
    'LinkedIn',
    'Telephone',
    'Email',
    'CreationDate',
    'ModificationDate',
  ],
  contacts: [
    'ContactId',
    'FirstName',
    'Surname',
    'Email',
    'Telephone',
    'Mobile',
    'JobTitle',
    'Company',
    'CreationDate',
    'ModificationDate',
  ],
  candidates: [
    'CandidateId',
    'Title',
    'FirstName',
    'Surname',
    'Email',
    'Telephone',
    'Mobile',
    'Address',
    'EmploymentHistory',
    'Education',
    'CreationDate',
    'ModificationDate',
  ],
  applications: [
    'ApplicationId',
    'Candidate',
    'Vacancy',
    'ApplicationDate',
    'Workflow',
    'Questions',
    'CreationDate',
    'ModificationDate',
  ],
};

export const FILTER_OPERATIONS = ['Equals', 'GreaterThan', 'LessThan', 'In'] as const;
export type FilterOperation = (typeof FILTER_OPERATIONS)[number];

/** choice: paging defaults and bounds; RecordsPerPage outside 1..500 is a 400. */
export const PAGING = { defaultRecordsPerPage: 100, maxRecordsPerPage: 500 } as const;

/**
 * Pick list 50: vacancy statuses. Labels are per customer and so are their ids; the least convenient reading is
 * taken: ids neither 1, 2, 3 nor in list order, a label close to an open one ("Open (Internal)"), so a client
 * that guesses ids or compares labels loosely finds nothing.
 */
export const VACANCY_STATUSES: readonly PickListItem[] = [
  { Id: 14, Description: 'Draft' },
  { Id: 31, Description: 'Open' },
  { Id: 7, Description: 'Live' },
  { Id: 22, Description: 'On Hold' },
  { Id: 3, Description: 'Closed' },
  { Id: 45, Description: 'Filled' },
  { Id: 9, Description: 'Cancelled' },
  { Id: 18, Description: 'Open (Internal)' },
];

/** The status a vacancy added through the admin surface starts with. */
export const DEFAULT_VACANCY_STATUS = 'Open';

/**
 * Fields of each record type that hold a pick-list value `{Id, Description}` or a link `{Id}`. ats-a.md
 * (choice): a filter on one of these compares the Id; a text Value (a Description) matches nothing, no error.
 * The sub-route `<Field>.Description` compares the text, `<Field>.Id` the id.
 */
export const REFERENCE_FIELDS: Record<SearchEntity, readonly string[]> = {
  vacancies: ['Title', 'VacancyStatus', 'Location', 'Company', 'Contact'],
  companies: ['CompanyStatus', 'ParentCompany'],
  contacts: ['Company'],
  candidates: [],
  applications: ['Candidate', 'Vacancy'],
};

/**
 * How records go over the wire (least convenient readings where ats-a.md is silent): an empty optional value
 * is left out rather than sent as `null` (a serializer set to ignore nulls), and date-times carry no offset
 * (a .NET `DateTime` of unspecified kind; the server's clock is UTC).
 */
export const WIRE_FORMAT = { emptyValues: 'absent', dateTimes: 'no-offset' } as const;

/** Pick list 193: file types for uploads. */
export const FILE_TYPES: readonly PickListItem[] = [
  { Id: 2, Description: 'CV' },
  { Id: 3, Description: 'General' },
];
export const FILE_TYPE_CV = 2;
export const FILE_TYPE_GENERAL = 3;

export const COMPANY_STATUSES: readonly PickListItem[] = [
  { Id: 1, Description: 'Active' },
  { Id: 2, Description: 'Prospect' },
  { Id: 3, Description: 'Inactive' },
];

export const APPLICATION_STAGES: readonly PickListItem[] = [{ Id: 1, Description: 'Applied' }];
export const APPLICATION_STATUSES: readonly PickListItem[] = [{ Id: 1, Description: 'New' }];

/** Dropdowns served by `GET /api/options/dropdown/{id}`. */
export const DROPDOWNS: Readonly<Record<number, readonly PickListItem[]>> = {
  50: VACANCY_STATUSES,
  193: FILE_TYPES,
};

/**
 * choice: ids of each record type live in their own range, so a client that mixes up a contact id and a
 * company id fails loudly instead of silently hitting another record.
 */
export const ID_BASE = {
  vacancy: 0,
  company: 1_000_000,
  contact: 2_000_000,
  candidate: 3_000_000,
  application: 4_000_000,
  file: 5_000_000,
} as const;

/** OAuth-style scopes; a client configured with `scopes` may only call endpoints needing one of them. */
export const SCOPES = [
  'vacancies.read',
  'contacts.read',
  'companies.read',
  'candidates.read',
  'candidates.insert',
  'candidates.update',
  'applications.read',
  'applications.insert',
  'applications.update',
  'files.insert',
  'options.read',
] as const;
export type Scope = (typeof SCOPES)[number];

/** Endpoint keys (method + route pattern) as they appear in call counts, faults and scope checks. */
export const ENDPOINT_SCOPES: Readonly<Record<string, Scope | null>> = {
  'POST /api/token': null,
  'POST /api/vacancies/search': 'vacancies.read',
  'POST /api/contacts/search': 'contacts.read',
  'POST /api/companies/search': 'companies.read',
  'POST /api/candidates/search': 'candidates.read',
  'POST /api/applications/search': 'applications.read',
  'GET /api/options/dropdown/{id}': 'options.read',
  'POST /api/candidates': 'candidates.insert',
  'PATCH /api/candidates/{id}': 'candidates.update',
  'POST /api/applications': 'applications.insert',
  'PATCH /api/applications/{id}': 'applications.update',
  'POST /api/candidates/{id}/upload/cv': 'files.insert',
  'POST /api/candidates/{id}/upload/file': 'files.insert',
};

export const ERROR_MESSAGES = {
  dailyLimit: 'Daily API limit exceeded',
  missingToken: 'Authorization has been denied for this request',
  invalidToken: 'The access token is invalid or has expired',
  transient: 'The service is temporarily unavailable',
} as const;

export const RATE_LIMIT_HEADERS = {
  limit: 'X-RateLimit-Limit',
  remaining: 'X-RateLimit-Remaining',
  reset: 'X-RateLimit-Reset',
} as const;
