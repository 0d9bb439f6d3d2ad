import { readDate, readId, readObject, readText } from '@connector/ats-http';
import type { VacancyCompanyDto, VacancyContactDto } from '@connector/contracts';

/**
 * ATS-A contact → the contract's contact (absent values left out), or undefined without a readable id.
 * Read tolerantly: ids as numbers or text, empty values `null`, absent or blank.
 */
export function atsAContact(record: unknown): VacancyContactDto | undefined {
  const contact = readObject(record);
  const externalId = readId(contact?.['ContactId']);
  if (!contact || externalId === undefined) return undefined;
  return compact({
    externalId,
    name: joined([readText(contact['FirstName']), readText(contact['Surname'])], ' '),
    email: readText(contact['Email']),
    phone: readText(contact['Telephone']) ?? readText(contact['Mobile']),
    jobTitle: readText(contact['JobTitle']),
  }) as VacancyContactDto;
}

/** ATS-A company → the contract's company: one-line address, web links, switchboard contact. */
export function atsACompany(record: unknown): VacancyCompanyDto | undefined {
  const company = readObject(record);
  if (!company) return undefined;
  const name = readText(company['Name']);
  if (name === undefined) return undefined;
  const postal = readObject(company['Address']);
  const address = postal
    ? joined(
        ['Address1', 'Address2', 'Town', 'County', 'PostCode', 'Country'].map((f) => readText(postal[f])),
        ', ',
      )
    : undefined;
  const links = compact({ website: readText(company['Website']), linkedIn: readText(company['LinkedIn']) });
  const contact = compact({ phone: readText(company['Telephone']), email: readText(company['Email']) });
  return {
    name,
    ...(address ? { address } : {}),
    links,
    ...(Object.keys(contact).length > 0 ? { contact } : {}),
  };
}

/** An ATS-A date as ISO 8601 UTC (a date-time without offset is UTC), or the fallback when unreadable. */
export function atsADate(value: unknown, fallback: Date): string {
  return (readDate(value) ?? fallback).toISOString();
}

function joined(parts: ReadonlyArray<string | undefined>, separator: string): string | undefined {
  const text = parts.filter(Boolean).join(separator);
  return text === '' ? undefined : text;
}

function compact(value: Record<string, string | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, v] of Object.entries(value)) if (v !== undefined) out[key] = v;
  return out;
}
