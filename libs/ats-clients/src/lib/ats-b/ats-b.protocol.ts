/** ATS-B constants the client follows (ats-b.md), in one place. */
export const ATS_B_NAME = 'ATS-B';

/** A 429 from ATS-B means "wait 1 second then retry". */
export const ATS_B_DEFAULT_RETRY_AFTER_MS = 1_000;

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
