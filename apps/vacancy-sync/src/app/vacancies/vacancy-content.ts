import { createHash } from 'node:crypto';
import type { SourceVacancy } from '@connector/ats-core';
import type { VacancyUpsertedDto } from '@connector/contracts';
import { applyJobMapping, type JobMapping } from '@connector/job-mapping';

export type VacancyUpsert = VacancyUpsertedDto;

/**
 * The `vacancy.upserted` data of a vacancy, or undefined when the mapping's publish lists leave it out
 * (then it counts as not live). The hash covers everything but `updatedAt`: a save that changed nothing the
 * platform sees is not a change.
 */
export function buildVacancyUpsert(
  connectorId: string,
  atsType: string,
  mapping: JobMapping,
  vacancy: SourceVacancy,
): VacancyUpsert | undefined {
  const mapped = applyJobMapping(mapping, vacancy.record);
  if (!mapped.publish) return undefined;
  const content: Omit<VacancyUpsertedDto, 'updatedAt' | 'contentHash'> = {
    connectorId,
    atsType,
    externalId: vacancy.externalId,
    title: mapped.title,
    location: mapped.location,
    description: mapped.description,
    requirements: mapped.requirements,
    status: mapped.status,
    ...(vacancy.contact ? { contact: vacancy.contact } : {}),
    ...(vacancy.company ? { company: vacancy.company } : {}),
    fields: mapped.fields,
  };
  return { ...content, updatedAt: vacancy.updatedAt, contentHash: contentHash(content) };
}

/** sha256 of the canonical JSON (keys sorted, undefined left out), so key order never makes a change. */
export function contentHash(value: unknown): string {
  return createHash('sha256').update(canonicalJson(value)).digest('hex');
}

export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
}
