/** ATS-A constants the client follows (ats-a.md), in one place. */
export const ATS_A_NAME = 'ATS-A';

/** A 429 without Retry-After / X-RateLimit-Reset: the daily limit, so wait a while rather than a second. */
export const ATS_A_DEFAULT_RETRY_AFTER_MS = 60_000;

/**
 * choice (ats-a.md): the token endpoint counts against the daily limit like any call; nothing says it is free.
 * A vendor that documents free token calls is one `false` here: tokens are then asked for off the budget.
 */
export const ATS_A_TOKEN_CALLS_COUNT = true;

/**
 * choice (ats-a.md): a write shows in ATS-A's searches within 5 s (its index lag). A look-up after an unsure
 * write waits this long; the sandbox's `indexLagMs` plays it.
 */
export const ATS_A_INDEX_LAG_MS = 5_000;

/** The pick list that lists vacancy statuses; also the cheap read of the connection test. */
export const ATS_A_VACANCY_STATUS_DROPDOWN = 50;

/** The search endpoints accept 1..500 records a page. */
export const ATS_A_MAX_PAGE_SIZE = 500;
