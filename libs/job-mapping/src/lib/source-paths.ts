import type { MappingAtsType } from './job-mapping.types';

/**
 * The paths a mapping may read, per ATS. ATS-A: the vacancy record as vacancy-sync passes it, with `Company`
 * and `Contact` replaced by the enriched company and contact records (../shared/ats-a.md). ATS-B: the
 * JobOrder fields vacancy-sync requests (../shared/ats-b.md).
 */
const ATS_A_PICK_LISTS = ['Title', 'VacancyStatus', 'Location', 'Company.CompanyStatus'];
const ATS_A_ADDRESS = ['Address1', 'Address2', 'Town', 'County', 'PostCode', 'Country'];

const ATS_A_PATHS: readonly string[] = [
  'VacancyId',
  ...ATS_A_PICK_LISTS.flatMap((list) => [list, `${list}.Id`, `${list}.Description`]),
  'Salary',
  'Description',
  'Requirements',
  'IncludeOnSite',
  'DatePosted',
  'AdvertisingEndDate',
  'CreationDate',
  'ModificationDate',
  'Company.CompanyId',
  'Company.Name',
  'Company.ParentCompany.Id',
  ...ATS_A_ADDRESS.map((field) => `Company.Address.${field}`),
  'Company.Website',
  'Company.LinkedIn',
  'Company.Telephone',
  'Company.Email',
  'Contact.ContactId',
  'Contact.FirstName',
  'Contact.Surname',
  'Contact.Email',
  'Contact.Telephone',
  'Contact.Mobile',
  'Contact.JobTitle',
];

const ATS_B_PATHS: readonly string[] = [
  'id',
  'title',
  ...['address1', 'address2', 'city', 'state', 'zip', 'countryID'].map((field) => `address.${field}`),
  'publicDescription',
  'description',
  'skillList',
  'employmentType',
  'status',
  'isOpen',
  'isPublic',
  'dateAdded',
  'dateLastModified',
  'clientCorporation.id',
  'clientCorporation.name',
  'clientContact.id',
  'clientContact.firstName',
  'clientContact.lastName',
  'clientContact.email',
  'clientContact.phone',
];

export const KNOWN_SOURCE_PATHS: Readonly<Record<MappingAtsType, ReadonlySet<string>>> = {
  'ats-a': new Set(ATS_A_PATHS),
  'ats-b': new Set(ATS_B_PATHS),
};

export function knownSourcePaths(atsType: MappingAtsType): string[] {
  return [...KNOWN_SOURCE_PATHS[atsType]];
}
