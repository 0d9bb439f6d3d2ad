import type {
  AtsBAddress,
  AtsBCandidateInput,
  AtsBEducationInput,
  AtsBWorkHistoryInput,
} from '../client/ats-b.types';
import type { AddressDto, CandidateDataDto, EducationDto, WorkHistoryDto } from '@connector/contracts';

/**
 * Platform candidate → ATS fields. Every field is always present (null when the platform has no value), so
 * a value the platform removes shows up as a change and is cleared in the ATS.
 */

/** New candidates get ATS-B's default status; later updates never send one (recruiters own it). */
export const ATS_B_NEW_CANDIDATE_STATUS = 'New Lead';

/**
 * ISO 3166-1 alpha-2 → ATS-B `countryID` (Bullhorn's country list). Only the ids we are sure of; any other
 * country is left out rather than guessed (the rest of the address still goes).
 */
export const ATS_B_COUNTRY_IDS: Readonly<Record<string, number>> = { US: 1, GB: 2359, CA: 2216 };

export type AtsBCandidateFields = Required<Omit<AtsBCandidateInput, 'status'>>;

export function toAtsBCandidate(candidate: CandidateDataDto): AtsBCandidateFields {
  return {
    firstName: candidate.firstName,
    lastName: candidate.lastName,
    // ATS-B never derives `name` from first and last name: it must be sent with them.
    name: `${candidate.firstName} ${candidate.lastName}`,
    email: candidate.email,
    phone: candidate.phone ?? null,
    mobile: candidate.mobile ?? null,
    address: candidate.address ? toAtsBAddress(candidate.address) : null,
    source: candidate.source ?? null,
  };
}

/** The insert body: required `status`, and no nulls (nothing to clear yet). */
export function toAtsBCandidateInsert(fields: AtsBCandidateFields): AtsBCandidateInput {
  const present = Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== null));
  return { ...(present as Pick<AtsBCandidateInput, 'name'>), status: ATS_B_NEW_CANDIDATE_STATUS };
}

function toAtsBAddress(address: AddressDto): AtsBAddress {
  const countryID = address.countryCode ? ATS_B_COUNTRY_IDS[address.countryCode.toUpperCase()] : undefined;
  return {
    address1: address.line1,
    address2: address.line2 ?? null,
    city: address.city ?? null,
    state: address.region ?? null,
    zip: address.postalCode ?? null,
    ...(countryID !== undefined ? { countryID } : {}),
  };
}

export type AtsBWorkHistoryFields = Omit<AtsBWorkHistoryInput, 'candidate'>;
export type AtsBEducationFields = Omit<AtsBEducationInput, 'candidate'>;

export function toAtsBWorkHistory(entry: WorkHistoryDto): AtsBWorkHistoryFields {
  return {
    companyName: entry.employer,
    title: entry.title,
    startDate: yearMonthToEpochMs(entry.startDate),
    endDate: entry.current || !entry.endDate ? null : yearMonthToEpochMs(entry.endDate),
    comments: entry.description ?? null,
  };
}

export function toAtsBEducation(entry: EducationDto): AtsBEducationFields {
  return {
    school: entry.institution,
    degree: entry.degree ?? null,
    major: entry.fieldOfStudy ?? null,
    startDate: entry.startDate ? yearMonthToEpochMs(entry.startDate) : null,
    endDate: entry.endDate ? yearMonthToEpochMs(entry.endDate) : null,
  };
}

/** ATS-B dates are epoch ms; the platform's YYYY-MM becomes the first day of that month, UTC. */
export function yearMonthToEpochMs(yearMonth: string): number {
  const match = /^(\d{4})-(\d{2})$/.exec(yearMonth);
  // The value is the candidate's (work history, education): not quoted, as a failure's reason reaches operation.failed.
  if (!match) throw new RangeError('a work history or education date is not YYYY-MM');
  return Date.UTC(Number(match[1]), Number(match[2]) - 1, 1);
}
