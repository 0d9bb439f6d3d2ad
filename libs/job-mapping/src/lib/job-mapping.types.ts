/**
 * A job mapping: how an ATS job record becomes the platform's vacancy fields. The registry validates and
 * versions it; vacancy-sync applies it to every vacancy it publishes.
 */

/**
 * What a mapping may read of one ATS and what a new connector starts with; each ATS adapter has one
 * (`AtsAdapter.mapping`, libs/ats).
 */
export interface MappingVocabulary {
  /** The ATS's name, for messages ("unknown source path … for ats-a"). */
  readonly atsType: string;
  /** The dotted paths of the record vacancy-sync hands to the mapping. */
  readonly sourcePaths: ReadonlySet<string>;
  /** What a new connector starts with (saved as its mapping version 1). */
  readonly defaults: JobMapping;
}

/** Where a target field's value comes from: a dotted path in the ATS record, or a fixed text. */
export type JobMappingSource = { from: string; default?: string } | { constant: string };

/** The five fields every vacancy has; any other key of `fields` is an extra field of the connector's choice. */
export const REQUIRED_TARGETS = ['title', 'location', 'description', 'requirements', 'status'] as const;
export type RequiredTarget = (typeof REQUIRED_TARGETS)[number];

export interface JobMapping {
  fields: Record<RequiredTarget, JobMappingSource> & Record<string, JobMappingSource>;
  /** Only vacancies whose mapped status / location is listed are published (no list: no filter). */
  publish?: { statuses?: string[]; locations?: string[] };
}

export interface MappedVacancy {
  title: string;
  location: string;
  description: string;
  requirements: string;
  status: string;
  /** The extra fields (every target that is not one of the five above). */
  fields: Record<string, string>;
  /** False when the status or location is outside the mapping's `publish` lists. */
  publish: boolean;
}
