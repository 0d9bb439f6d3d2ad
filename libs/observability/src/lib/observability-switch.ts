/**
 * `OBSERVABILITY=off`, for benchmarks only (the candidate pipeline bench measures what metrics and log
 * context cost): no metric declared through this lib records anything, and log lines carry no message ids.
 * Read once, when the process starts; anything else but `off` leaves both on.
 */
export const OBSERVABILITY_OFF = process.env['OBSERVABILITY'] === 'off';
