/** One UTC day of a connector's work. */
export interface ActivityDayView {
  /** `YYYY-MM-DD`, UTC. */
  day: string;
  /** ATS API calls its vacancy runs made (runs that ended that day). */
  apiCalls: number;
  /** Vacancies its runs published: new or changed, and closed. */
  vacanciesPublished: number;
  /** Candidates, applications and documents it wrote to the ATS. */
  recordsWritten: number;
  /** Messages for it that failed (the failure log) and runs that failed. */
  failures: number;
}

export interface ActivityView {
  connectorId: string;
  /** Oldest first, ending today; days without work are there with zeros. */
  days: ActivityDayView[];
}
