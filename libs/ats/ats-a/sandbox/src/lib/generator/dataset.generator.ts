import { COMPANY_STATUSES, ID_BASE, VACANCY_STATUSES } from '../ats-a.protocol';
import type { Company, Contact, PostalAddress, Vacancy } from '../ats-a.records';
import { SeededRandom } from './seeded-random';
import {
  COMPANY_STEMS,
  COMPANY_SUFFIXES,
  CONTACT_JOB_TITLES,
  COUNTIES,
  COUNTRIES,
  DESCRIPTION_SENTENCES,
  FIRST_NAMES,
  JOB_TITLES,
  LOCATIONS,
  REQUIREMENTS,
  STREETS,
  SURNAMES,
  TOWNS,
} from './sample.words';

export interface DatasetSpec {
  vacancies: number;
  seed: number;
  /** Epoch ms every generated date is relative to. */
  anchorMs: number;
}

const DAY_MS = 86_400_000;
const NO_LOCATION = 255;
// Independent random streams per record kind, so changing one generator does not shift the others.
const STREAM = { vacancyCore: 1, vacancyText: 2, company: 3, contact: 4 } as const;
/** How often each status occurs, by label; `status[i]` holds 1 + the status's position in VACANCY_STATUSES. */
const STATUS_WEIGHTS: readonly [string, number][] = [
  ['Open', 0.43],
  ['Live', 0.2],
  ['On Hold', 0.08],
  ['Closed', 0.12],
  ['Filled', 0.08],
  ['Cancelled', 0.04],
  ['Draft', 0.03],
  ['Open (Internal)', 0.02],
];
const STATUS_POSITIONS: readonly [number, number][] = STATUS_WEIGHTS.map(([label, weight]) => {
  const position = VACANCY_STATUSES.findIndex((s) => s.Description === label);
  if (position < 0) throw new Error(`sandbox: no vacancy status ${label}`);
  return [position + 1, weight];
});

export function utcMidnight(ms: number): number {
  return Math.floor(ms / DAY_MS) * DAY_MS;
}

/**
 * A deterministic data set of N vacancies with ~N/5 companies and ~N/3 contacts. The searchable core of each
 * vacancy (dates, status, links) is held in typed arrays (~60 bytes each) and everything else is rebuilt on demand
 * from the seed, so 100 000 vacancies cost a few MB and are ready in milliseconds.
 */
export class GeneratedDataset {
  readonly vacancyCount: number;
  readonly companyCount: number;
  readonly contactCount: number;

  readonly created: Float64Array;
  readonly modified: Float64Array;
  /** NaN = not set. */
  readonly posted: Float64Array;
  readonly advertisingEnd: Float64Array;
  readonly status: Uint8Array;
  readonly onSite: Uint8Array;
  readonly title: Uint8Array;
  readonly location: Uint8Array;
  /** Record ids; 0 = no link. */
  readonly vacancyCompany: Uint32Array;
  readonly vacancyContact: Uint32Array;

  constructor(readonly spec: DatasetSpec) {
    const n = spec.vacancies;
    this.vacancyCount = n;
    this.companyCount = n === 0 ? 0 : Math.max(1, Math.round(n / 5));
    this.contactCount = n === 0 ? 0 : Math.max(1, Math.round(n / 3));
    this.created = new Float64Array(n);
    this.modified = new Float64Array(n);
    this.posted = new Float64Array(n);
    this.advertisingEnd = new Float64Array(n);
    this.status = new Uint8Array(n);
    this.onSite = new Uint8Array(n);
    this.title = new Uint8Array(n);
    this.location = new Uint8Array(n);
    this.vacancyCompany = new Uint32Array(n);
    this.vacancyContact = new Uint32Array(n);
    for (let i = 0; i < n; i++) this.generateCore(i);
  }

  vacancyId(index: number): number {
    return ID_BASE.vacancy + index + 1;
  }

  companyId(index: number): number {
    return ID_BASE.company + index + 1;
  }

  contactId(index: number): number {
    return ID_BASE.contact + index + 1;
  }

  private generateCore(i: number): void {
    const { anchorMs } = this.spec;
    const rng = new SeededRandom(this.spec.seed, i, STREAM.vacancyCore);
    this.status[i] = weightedStatus(rng.next());
    this.onSite[i] = rng.chance(0.85) ? 1 : 0;
    this.title[i] = rng.int(0, JOB_TITLES.length - 1);
    this.location[i] = rng.chance(0.08) ? NO_LOCATION : rng.int(0, LOCATIONS.length - 1);

    const postedRoll = rng.next();
    const posted =
      postedRoll < 0.1
        ? NaN
        : postedRoll < 0.18
          ? anchorMs + rng.int(1, 60) * DAY_MS // not yet advertised
          : anchorMs - rng.int(0, 365) * DAY_MS - rng.int(0, 86_399) * 1000;
    const endRoll = rng.next();
    const end =
      endRoll < 0.3
        ? NaN
        : endRoll < 0.42
          ? anchorMs - rng.int(1, 90) * DAY_MS // expired
          : anchorMs + rng.int(1, 120) * DAY_MS;
    const created = Math.min(Number.isNaN(posted) ? anchorMs : posted, anchorMs) - rng.int(1, 400) * DAY_MS;
    // Spread over the past, never after the anchor (today's midnight), at whole seconds like the vendor's.
    const modified = Math.floor((created + rng.next() * (anchorMs - created - 1000)) / 1000) * 1000;
    this.posted[i] = posted;
    this.advertisingEnd[i] = end;
    this.created[i] = created;
    this.modified[i] = modified;

    const companyIndex = rng.int(0, this.companyCount - 1);
    this.vacancyCompany[i] = rng.chance(0.04) ? 0 : this.companyId(companyIndex);
    // Contacts belong to company (index mod companyCount): pick one of the vacancy's company when it has any.
    const contactsOfCompany =
      companyIndex < this.contactCount
        ? Math.floor((this.contactCount - 1 - companyIndex) / this.companyCount) + 1
        : 0;
    this.vacancyContact[i] =
      contactsOfCompany === 0 || rng.chance(0.1)
        ? 0
        : this.contactId(companyIndex + this.companyCount * rng.int(0, contactsOfCompany - 1));
  }

  /** The full vacancy at index i, rebuilt from the core arrays and the seed. */
  vacancy(i: number): Vacancy {
    const rng = new SeededRandom(this.spec.seed, i, STREAM.vacancyText);
    const location = this.location[i] === NO_LOCATION ? null : LOCATIONS[this.location[i]];
    return {
      VacancyId: this.vacancyId(i),
      Title: JOB_TITLES[this.title[i]],
      VacancyStatus: VACANCY_STATUSES[this.status[i] - 1],
      Location: location,
      Company: this.vacancyCompany[i] ? { Id: this.vacancyCompany[i] } : null,
      Contact: this.vacancyContact[i] ? { Id: this.vacancyContact[i] } : null,
      Salary: rng.chance(0.25) ? null : salary(rng, location?.Description ?? ''),
      Description: rng.chance(0.03) ? null : htmlDescription(rng),
      Requirements: rng.chance(0.2) ? null : requirements(rng),
      IncludeOnSite: this.onSite[i] === 1,
      DatePosted: isoOrNull(this.posted[i]),
      AdvertisingEndDate: isoOrNull(this.advertisingEnd[i]),
      CreationDate: new Date(this.created[i]).toISOString(),
      ModificationDate: new Date(this.modified[i]).toISOString(),
    };
  }

  companyIndexOf(id: number): number {
    const index = id - ID_BASE.company - 1;
    return Number.isInteger(index) && index >= 0 && index < this.companyCount ? index : -1;
  }

  contactIndexOf(id: number): number {
    const index = id - ID_BASE.contact - 1;
    return Number.isInteger(index) && index >= 0 && index < this.contactCount ? index : -1;
  }

  company(j: number): Company {
    const rng = new SeededRandom(this.spec.seed, j, STREAM.company);
    const combos = COMPANY_STEMS.length * COMPANY_SUFFIXES.length;
    const base = `${COMPANY_STEMS[j % COMPANY_STEMS.length]} ${COMPANY_SUFFIXES[Math.floor(j / COMPANY_STEMS.length) % COMPANY_SUFFIXES.length]}`;
    const name = j < combos ? base : `${base} ${Math.floor(j / combos) + 1}`;
    const slug = asciiSlug(name) || `company-${j}`;
    const created = this.spec.anchorMs - rng.int(400, 2000) * DAY_MS;
    return {
      CompanyId: this.companyId(j),
      Name: name,
      CompanyStatus: rng.chance(0.85) ? COMPANY_STATUSES[0] : rng.pick(COMPANY_STATUSES),
      ParentCompany: j > 0 && rng.chance(0.1) ? { Id: this.companyId(rng.int(0, j - 1)) } : null,
      Address: rng.chance(0.1) ? null : address(rng),
      Website: rng.chance(0.2) ? null : `https://www.${slug}.example`,
      LinkedIn: rng.chance(0.4) ? null : `https://www.linkedin.com/company/${slug}`,
      Telephone: rng.chance(0.15) ? null : phone(rng, '+44 20'),
      Email: rng.chance(0.2) ? null : `jobs@${slug}.example`,
      CreationDate: new Date(created).toISOString(),
      ModificationDate: new Date(created + rng.int(0, 399) * DAY_MS).toISOString(),
    };
  }

  contact(k: number): Contact {
    const rng = new SeededRandom(this.spec.seed, k, STREAM.contact);
    const firstName = rng.pick(FIRST_NAMES);
    const surname = rng.pick(SURNAMES);
    const created = this.spec.anchorMs - rng.int(100, 1500) * DAY_MS;
    return {
      ContactId: this.contactId(k),
      FirstName: firstName,
      Surname: surname,
      Email: rng.chance(0.1) ? null : `${asciiSlug(`${firstName}.${surname}`) || 'contact'}.${k}@example.com`,
      Telephone: rng.chance(0.2) ? null : phone(rng, '+44 161'),
      Mobile: rng.chance(0.3) ? null : phone(rng, '+44 7700'),
      JobTitle: rng.chance(0.15) ? null : rng.pick(CONTACT_JOB_TITLES),
      Company: { Id: this.companyId(k % this.companyCount) },
      CreationDate: new Date(created).toISOString(),
      ModificationDate: new Date(created + rng.int(0, 99) * DAY_MS).toISOString(),
    };
  }
}

function weightedStatus(roll: number): number {
  let acc = 0;
  for (const [position, weight] of STATUS_POSITIONS) {
    acc += weight;
    if (roll < acc) return position;
  }
  return STATUS_POSITIONS[0][0];
}

function isoOrNull(ms: number): string | null {
  return Number.isNaN(ms) ? null : new Date(ms).toISOString();
}

function salary(rng: SeededRandom, location: string): string {
  const currency =
    location === 'Łódź' || location === 'Kraków'
      ? 'PLN '
      : location === '東京'
        ? '¥'
        : location === 'Zürich'
          ? 'CHF '
          : '£';
  const low = rng.int(18, 80);
  return `${currency}${low},000 - ${currency}${low + rng.int(2, 20)},000 per annum`;
}

function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

function htmlDescription(rng: SeededRandom): string {
  const paragraphs: string[] = [];
  const count = rng.int(1, 3);
  for (let p = 0; p < count; p++) paragraphs.push(`<p>${escapeHtml(rng.pick(DESCRIPTION_SENTENCES))}</p>`);
  const items = Array.from({ length: rng.int(2, 4) }, () => `<li>${escapeHtml(rng.pick(REQUIREMENTS))}</li>`);
  let html = `${paragraphs.join('')}<ul>${items.join('')}</ul>`;
  if (rng.chance(0.2)) html = `<h2>About the role</h2>${html}<p><strong>Apply&nbsp;today!</strong></p>`;
  // Some customers paste unsafe markup; consumers must sanitise it.
  if (rng.chance(0.02)) html += '<script>alert("xss")</script><img src=x onerror="alert(1)">';
  return html;
}

function requirements(rng: SeededRandom): string {
  const items = Array.from({ length: rng.int(1, 4) }, () => rng.pick(REQUIREMENTS));
  return rng.chance(0.5)
    ? items.join('\n')
    : `<ul>${items.map((i) => `<li>${escapeHtml(i)}</li>`).join('')}</ul>`;
}

function address(rng: SeededRandom): PostalAddress {
  return {
    Address1: `${rng.int(1, 250)} ${rng.pick(STREETS)}`,
    Address2: rng.chance(0.6) ? null : `Unit ${rng.int(1, 40)}`,
    Town: rng.pick(TOWNS),
    County: rng.chance(0.3) ? null : rng.pick(COUNTIES),
    PostCode: rng.chance(0.1)
      ? null
      : `${String.fromCharCode(65 + rng.int(0, 25))}${rng.int(1, 20)} ${rng.int(1, 9)}AB`,
    Country: rng.chance(0.1) ? null : rng.pick(COUNTRIES),
  };
}

function phone(rng: SeededRandom, prefix: string): string {
  return `${prefix} ${rng.int(1000, 9999)} ${rng.int(1000, 9999)}`;
}

function asciiSlug(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/[^\x20-\x7e]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}
