import type {
  CandidateEducation,
  CandidateWorkHistory,
  ClientContact,
  ClientCorporation,
  JobOrder,
} from '@bullhorn/bullhorn-types';

/** ATS-B constants the client follows (ats-b.md), in one place. */
export const ATS_B_NAME = 'ATS-B';

/** A 429 from ATS-B means "wait 1 second then retry". */
export const ATS_B_DEFAULT_RETRY_AFTER_MS = 1_000;

/**
 * choice (ats-b.md): `search/Candidate` (the vendor's Lucene index) shows a new candidate within 10 s. A look-up
 * after an unsure create waits this long; the sandbox's `indexLagMs` plays it.
 */
export const ATS_B_INDEX_LAG_MS = 10_000;

/** The session error after which a new session is worth one retry. */
export const ATS_B_INVALID_REST_TOKEN = 'errors.authentication.invalidRestToken';

/** Open jobs; public ones are filtered on `isPublic` by the caller from the fields it reads. */
export const ATS_B_OPEN_JOBS_QUERY = 'isOpen:1 AND isDeleted:0';

/** search/JobOrder answers at most 500 a page. */
export const ATS_B_MAX_SEARCH_COUNT = 500;

/** Ids per `entity/JobOrder/{ids}` call, so the URL stays short enough for any proxy. */
export const ATS_B_MAX_IDS_PER_GET = 100;

/** Attachment fields read by listCandidateFiles. */
export const ATS_B_FILE_FIELDS = 'id,name,type,externalID';

/** Fields read of `Candidate.workHistories`: what the integration writes, to recognise a record it sent. */
export const ATS_B_WORK_HISTORY_FIELDS = [
  'id',
  'companyName',
  'title',
  'startDate',
  'endDate',
  'comments',
] as const satisfies readonly (keyof CandidateWorkHistory)[];

/** Fields read of `Candidate.educations`. */
export const ATS_B_EDUCATION_FIELDS = [
  'id',
  'school',
  'degree',
  'major',
  'startDate',
  'endDate',
] as const satisfies readonly (keyof CandidateEducation)[];

/**
 * `count` asked of a to-many association (`entity/Candidate/{id}/workHistories`): the vendor's default page
 * is small and undocumented, so it is always given; 500, the most a search page holds, is far more entries
 * than a candidate has (the platform sends at most 50).
 */
export const ATS_B_ASSOCIATION_COUNT = 500;

/** Sub-fields read from JobOrder.clientCorporation (a to-one association: only `id` unless asked). */
export const ATS_B_CLIENT_CORPORATION_FIELDS = [
  'name',
] as const satisfies readonly (keyof ClientCorporation)[];
export const ATS_B_CLIENT_CONTACT_FIELDS = [
  'firstName',
  'lastName',
  'email',
  'phone',
] as const satisfies readonly (keyof ClientContact)[];

/** The plain JobOrder fields vacancy-sync reads. */
export const ATS_B_JOB_ORDER_SCALAR_FIELDS = [
  'title',
  'publicDescription',
  'description',
  'skillList',
  'employmentType',
  'status',
  'isOpen',
  'isPublic',
  'isDeleted',
  'dateAdded',
  'dateLastModified',
] as const satisfies readonly (keyof JobOrder)[];

/**
 * The `fields` vacancy-sync asks of `entity/JobOrder`: to-one associations name their sub-fields, since
 * ATS-B answers an association with only its `id` unless they are asked for.
 */
export const ATS_B_JOB_ORDER_FIELDS: readonly string[] = [
  'id',
  ...ATS_B_JOB_ORDER_SCALAR_FIELDS,
  'address',
  `clientCorporation(id,${ATS_B_CLIENT_CORPORATION_FIELDS.join(',')})`,
  `clientContact(id,${ATS_B_CLIENT_CONTACT_FIELDS.join(',')})`,
];
