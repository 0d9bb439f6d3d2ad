import type { AtsACompany, AtsAContact } from '@connector/ats-clients';
import type { VacancyCompanyDto, VacancyContactDto } from '@connector/contracts';

/** ATS-A contact → the contract's contact (absent values left out). */
export function atsAContact(contact: AtsAContact): VacancyContactDto {
  return compact({
    externalId: String(contact.ContactId),
    name: joined([contact.FirstName, contact.Surname], ' '),
    email: contact.Email,
    phone: contact.Telephone ?? contact.Mobile,
    jobTitle: contact.JobTitle,
  });
}

/** ATS-A company → the contract's company: one-line address, web links, switchboard contact. */
export function atsACompany(company: AtsACompany): VacancyCompanyDto {
  const address = company.Address
    ? joined(
        [
          company.Address.Address1,
          company.Address.Address2,
          company.Address.Town,
          company.Address.County,
          company.Address.PostCode,
          company.Address.Country,
        ],
        ', ',
      )
    : undefined;
  const links = compact({ website: company.Website, linkedIn: company.LinkedIn }) as Record<string, string>;
  const contact = compact({ phone: company.Telephone, email: company.Email });
  return {
    name: company.Name,
    ...(address ? { address } : {}),
    links,
    ...(Object.keys(contact).length > 0 ? { contact } : {}),
  };
}

/** ATS-A dates without a zone are UTC. */
export function atsADate(value: string | null | undefined, fallback: Date): string {
  if (!value) return fallback.toISOString();
  const zoneless = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?)?$/.test(value);
  const ms = Date.parse(zoneless && value.length > 10 ? `${value}Z` : value);
  return Number.isNaN(ms) ? fallback.toISOString() : new Date(ms).toISOString();
}

function joined(parts: ReadonlyArray<string | null | undefined>, separator: string): string | undefined {
  const text = parts
    .map((part) => part?.trim())
    .filter(Boolean)
    .join(separator);
  return text === '' ? undefined : text;
}

function compact<T extends Record<string, string | null | undefined>>(value: T): { [K in keyof T]?: string } {
  const out: { [K in keyof T]?: string } = {};
  for (const key of Object.keys(value) as Array<keyof T>) {
    const v = value[key];
    if (typeof v === 'string' && v.trim() !== '') out[key] = v;
  }
  return out;
}
