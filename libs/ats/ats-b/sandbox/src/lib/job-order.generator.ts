import { mixSeed, mulberry32, pick } from './prng';
import type { ClientContactRef, ClientCorporationRef, JobOrder } from './sandbox.types';

/** Fixed reference instant so the same seed gives the same data on any day. */
export const DEFAULT_BASE_TIME_MS = Date.UTC(2026, 0, 1);
const YEAR_MS = 365 * 24 * 3600 * 1000;

/** Flag bits packed per job so 100 000 jobs cost a few bytes each. */
export const FLAG_OPEN = 1;
export const FLAG_PUBLIC = 2;
export const FLAG_DELETED = 4;

const TITLES = [
  'Senior Software Engineer',
  'Développeur Full-Stack',
  'Ingénieur Données',
  'Pflegefachkraft (m/w/d)',
  'Straßenbauer',
  'Account Manager',
  'Registered Nurse – Night Shift',
  'Warehouse Operative',
  'データエンジニア',
  'Kierowca kat. C+E',
  'Contable Señor',
  'Product Owner',
  'Electricista Oficial 1ª',
  'Customer Success Lead 🚀',
  'Data Analyst',
];
const CITIES: readonly [string, string, string, number][] = [
  ['Amsterdam', 'NH', '1012 AB', 2359],
  ['Zürich', 'ZH', '8001', 2361],
  ['São Paulo', 'SP', '01000-000', 2213],
  ['Kraków', 'MA', '30-001', 2330],
  ['Malmö', 'M', '211 20', 2360],
  ['東京', '13', '100-0001', 2296],
  ['London', 'ENG', 'EC1A 1BB', 2359],
  ['Boston', 'MA', '02108', 1],
  ['München', 'BY', '80331', 2266],
  ['Łódź', 'LD', '90-001', 2330],
];
const STREETS = ['Keizersgracht 1', 'Bahnhofstrasse 12', 'Rua Augusta 500', 'ul. Floriańska 3', '1 Main St'];
const EMPLOYMENT = ['Permanent', 'Contract', 'Contract To Hire', 'Fixed Term', 'Temporary'];
const STATUSES = ['Accepting Candidates', 'Covered', 'Offer Out', 'Placed'];
const SKILLS = [
  'TypeScript',
  'Java',
  'SQL',
  'Kubernetes',
  'Excel',
  'Forklift',
  'Deutsch C1',
  'Nursing',
  'SAP',
];
const COMPANY_WORDS = [
  'Acme',
  'Globex',
  'Initech',
  'Umbrella',
  'Björk & Söhne',
  'Nordlicht',
  'Øresund',
  'Café Zoë',
];
const COMPANY_SUFFIX = ['BV', 'GmbH', 'Ltd', 'S.A.', 'Inc.', 'AG', 'Sp. z o.o.'];
const FIRST = [
  'Anna',
  'José',
  'Zoë',
  'Łukasz',
  'Søren',
  'Chloé',
  'Mehmet',
  'Ngozi',
  'Hiroshi',
  'Émile',
  'Olga',
];
const LAST = ['de Vries', 'García', 'Müller', 'Kowalski', "O'Brien", 'Nakamura', 'Øster', 'Dubois', 'Smith'];

/** The record with its null fields left out when `omit` (the other way an instance sends an empty field). */
function emptied<T extends object>(record: T, omit: boolean): T {
  if (!omit) return record;
  return Object.fromEntries(Object.entries(record).filter(([, v]) => v !== null)) as T;
}

export class JobOrderGenerator {
  readonly companyCount: number;

  constructor(
    readonly jobs: number,
    readonly seed: number,
    readonly baseTimeMs: number = DEFAULT_BASE_TIME_MS,
  ) {
    this.companyCount = Math.max(5, Math.ceil(jobs / 20));
  }

  /** The searchable part of a job; the same draws open `generate` so the two always agree. */
  flagsOf(id: number): { flags: number; dateLastModified: number; dateAdded: number } {
    return this.head(mulberry32(mixSeed(this.seed, id)));
  }

  generate(id: number): JobOrder {
    const rand = mulberry32(mixSeed(this.seed, id));
    const { flags, dateLastModified, dateAdded } = this.head(rand);
    const [city, state, zip, countryID] = pick(rand, CITIES);
    const title = pick(rand, TITLES);
    const companyId = 1 + Math.floor(rand() * this.companyCount);
    const hasContact = rand() > 0.1;
    const contact = hasContact ? this.contact(companyId * 2 - (rand() < 0.5 ? 1 : 0)) : null;
    const sparse = rand() < 0.15;
    // An empty field comes as null or is left out, depending on the instance and the record: mix both.
    const omitEmpty = rand() < 0.5;
    const skills = Array.from({ length: 1 + Math.floor(rand() * 4) }, () => pick(rand, SKILLS));
    const open = (flags & FLAG_OPEN) !== 0;
    const salary = rand() < 0.6 ? 20_000 + Math.floor(rand() * 800) * 100 : null;
    const job: JobOrder = {
      id,
      title,
      address: emptied(
        {
          address1: sparse ? null : pick(rand, STREETS),
          address2: null,
          city,
          state: sparse ? null : state,
          zip: sparse ? null : zip,
          countryID,
        },
        omitEmpty,
      ),
      publicDescription: sparse && rand() < 0.5 ? null : this.html(rand, title, city),
      description: sparse
        ? null
        : `Internal notes for ${title}: budget approved, hiring manager ${contact?.lastName ?? 'n/a'}.`,
      skillList: sparse ? null : [...new Set(skills)].join(', '),
      employmentType: sparse && rand() < 0.5 ? null : pick(rand, EMPLOYMENT),
      status: open ? 'Accepting Candidates' : pick(rand, STATUSES.slice(1)),
      isOpen: open,
      isPublic: (flags & FLAG_PUBLIC) !== 0 ? 1 : 0,
      isDeleted: (flags & FLAG_DELETED) !== 0,
      numOpenings: 1 + Math.floor(rand() * 3),
      salary,
      payRate: salary === null && rand() < 0.5 ? 15 + Math.floor(rand() * 4000) / 100 : null,
      type: 1 + Math.floor(rand() * 3),
      startDate: rand() < 0.5 ? dateAdded + Math.floor(rand() * 60) * 86_400_000 : null,
      dateAdded,
      dateLastModified,
      dateClosed: open ? null : dateLastModified,
      dateEnd: null,
      clientCorporation: this.company(companyId),
      clientContact: contact === null ? null : emptied(contact, omitEmpty),
    };
    return emptied(job, omitEmpty);
  }

  company(id: number): ClientCorporationRef {
    const rand = mulberry32(mixSeed(this.seed ^ 0x5eed, id));
    return { id, name: `${pick(rand, COMPANY_WORDS)} ${pick(rand, COMPANY_SUFFIX)} #${id}` };
  }

  contact(id: number): ClientContactRef {
    const rand = mulberry32(mixSeed(this.seed ^ 0xc0ffee, id));
    const firstName = pick(rand, FIRST);
    const lastName = pick(rand, LAST);
    const slug = `${firstName}.${lastName}`
      .normalize('NFD')
      .replace(/[^A-Za-z.]/g, '')
      .toLowerCase();
    return {
      id,
      firstName,
      lastName,
      email: rand() < 0.8 ? `${slug}${id}@example.com` : null,
      phone: rand() < 0.7 ? `+31 20 ${String(1_000_000 + id).slice(-7)}` : null,
    };
  }

  private head(rand: () => number): { flags: number; dateLastModified: number; dateAdded: number } {
    const open = rand() < 0.85;
    const pub = rand() < 0.8;
    const deleted = rand() < 0.05;
    const dateLastModified = this.baseTimeMs - Math.floor(rand() * YEAR_MS);
    const dateAdded = dateLastModified - Math.floor(rand() * YEAR_MS);
    const flags = (open ? FLAG_OPEN : 0) | (pub ? FLAG_PUBLIC : 0) | (deleted ? FLAG_DELETED : 0);
    return { flags, dateLastModified, dateAdded };
  }

  private html(rand: () => number, title: string, city: string): string {
    const variant = Math.floor(rand() * 3);
    if (variant === 0)
      return `<p><strong>${title}</strong> in ${city}.</p><ul><li>Great team &amp; culture</li><li>Hybrid&nbsp;work</li></ul>`;
    if (variant === 1)
      return `<div style="font-family:Arial"><h2>${title}</h2><p>Join us in ${city} &mdash; apply today!</p><br></div>`;
    return `<p>${title} &lt;${city}&gt;</p><p><a href="https://example.com/jobs">More</a></p>`;
  }
}
