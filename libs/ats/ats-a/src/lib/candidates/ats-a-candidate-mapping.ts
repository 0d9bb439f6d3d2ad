import type { AddressDto, CandidateDataDto, EducationDto, WorkHistoryDto } from '@connector/contracts';
import type { AtsACandidateInput, AtsAEducation, AtsAEmploymentHistory } from '../client/ats-a.types';

/**
 * Platform candidate → ATS fields. Every field is always present (null when the platform has no value), so
 * a value the platform removes shows up as a change and is cleared in the ATS.
 */

export type AtsACandidateFields = Required<
  Pick<
    AtsACandidateInput,
    'FirstName' | 'Surname' | 'Email' | 'Telephone' | 'Mobile' | 'Address' | 'EmploymentHistory' | 'Education'
  >
>;

export function toAtsACandidate(candidate: CandidateDataDto): AtsACandidateFields {
  return {
    FirstName: candidate.firstName,
    Surname: candidate.lastName,
    Email: candidate.email,
    Telephone: candidate.phone ?? null,
    Mobile: candidate.mobile ?? null,
    Address: candidate.address ? toAtsAAddress(candidate.address) : null,
    EmploymentHistory: (candidate.workHistory ?? []).map(toAtsAEmployment),
    Education: (candidate.education ?? []).map(toAtsAEducation),
  };
}

function toAtsAAddress(address: AddressDto): NonNullable<AtsACandidateInput['Address']> {
  return {
    Address1: address.line1,
    Address2: address.line2 ?? null,
    Town: address.city ?? null,
    County: address.region ?? null,
    PostCode: address.postalCode ?? null,
    Country: address.countryCode ?? null,
  };
}

/** ATS-A takes YYYY-MM as the platform sends it; a current job has no end date. */
function toAtsAEmployment(entry: WorkHistoryDto): AtsAEmploymentHistory {
  return {
    Employer: entry.employer,
    JobTitle: entry.title,
    StartDate: entry.startDate,
    EndDate: entry.current ? null : (entry.endDate ?? null),
    Description: entry.description ?? null,
  };
}

function toAtsAEducation(entry: EducationDto): AtsAEducation {
  return {
    Establishment: entry.institution,
    Qualification: entry.degree ?? null,
    Subject: entry.fieldOfStudy ?? null,
    StartDate: entry.startDate ?? null,
    EndDate: entry.endDate ?? null,
  };
}
