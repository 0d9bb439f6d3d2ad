import type { AtsAVacancy } from './client/ats-a.types';

/**
 * The one list of the vacancy record's fields vacancy-sync reads (`ResponseBlocks` of `vacancies/search`).
 * The job mapping's source paths are derived from it; the sandbox keeps its own copy on purpose (it plays the
 * vendor, not us).
 */
export const ATS_A_VACANCY_BLOCKS = [
  'VacancyId',
  'Title',
  'VacancyStatus',
  'Location',
  'Company',
  'Contact',
  'Salary',
  'Description',
  'Requirements',
  'IncludeOnSite',
  'DatePosted',
  'AdvertisingEndDate',
  'CreationDate',
  'ModificationDate',
] as const satisfies readonly (keyof AtsAVacancy)[];

/** Fields that hold a pick list `{Id, Description}`: a mapping may read the whole, the Id or the Description. */
const PICK_LISTS: ReadonlySet<string> = new Set(['Title', 'VacancyStatus', 'Location']);
/** Replaced by the enriched records (`companies/search`, `contacts/search`) before the mapping reads them. */
const ENRICHED: ReadonlySet<string> = new Set(['Company', 'Contact']);

const ADDRESS = ['Address1', 'Address2', 'Town', 'County', 'PostCode', 'Country'];
const COMPANY_PATHS = [
  'Company.CompanyStatus',
  'Company.CompanyStatus.Id',
  'Company.CompanyStatus.Description',
  'Company.CompanyId',
  'Company.Name',
  'Company.ParentCompany.Id',
  ...ADDRESS.map((field) => `Company.Address.${field}`),
  'Company.Website',
  'Company.LinkedIn',
  'Company.Telephone',
  'Company.Email',
];
const CONTACT_PATHS = [
  'Contact.ContactId',
  'Contact.FirstName',
  'Contact.Surname',
  'Contact.Email',
  'Contact.Telephone',
  'Contact.Mobile',
  'Contact.JobTitle',
];

/**
 * The paths a mapping may read (../shared/ats-a.md): the vacancy record as vacancy-sync passes it, with
 * `Company` and `Contact` replaced by the enriched company and contact records.
 */
export const ATS_A_SOURCE_PATHS: readonly string[] = [
  ...ATS_A_VACANCY_BLOCKS.filter((block) => !ENRICHED.has(block)).flatMap((block) =>
    PICK_LISTS.has(block) ? [block, `${block}.Id`, `${block}.Description`] : [block],
  ),
  ...COMPANY_PATHS,
  ...CONTACT_PATHS,
];
