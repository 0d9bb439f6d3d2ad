import type { PickListItem } from '../ats-a.protocol';

/** Deliberately varied: accents, Polish, CJK, apostrophes and ampersands, so clients meet real-world text. */
export const JOB_TITLES: readonly PickListItem[] = [
  'Software Engineer',
  'Senior Software Engineer',
  'Ingénieur·e logiciel',
  'Account Manager',
  'Warehouse Operative',
  'Registered Nurse',
  'Café Supervisor',
  'HGV Driver (Class 1)',
  'Data Analyst',
  'Marketing & Communications Lead',
  'Kierownik zmiany – Łódź',
  'プロジェクトマネージャー',
  'Teaching Assistant',
  'Head of Finance',
  'Customer Service Advisor',
  'Électricien / Electrician',
  'Chef de Partie',
  'Recruitment Consultant',
  "Children's Social Worker",
  'DevOps Engineer',
].map((Description, i) => ({ Id: 101 + i, Description }));

export const LOCATIONS: readonly PickListItem[] = [
  'London',
  'Manchester',
  'Łódź',
  '東京',
  'Zürich',
  'São Paulo',
  'Kraków',
  'Reykjavík',
  'Dún Laoghaire',
  'Edinburgh',
  'Remote',
  'Köln',
].map((Description, i) => ({ Id: 201 + i, Description }));

export const FIRST_NAMES = [
  'Zoë',
  'Łukasz',
  'Siobhán',
  'José',
  '美咲',
  'Øyvind',
  'Anne-Marie',
  'Mohammed',
  'Chloé',
  'Oliver',
  'Amélie',
  'Dmitrij',
  'Aoife',
  'Ngozi',
  'Björk',
  'Priya',
] as const;

export const SURNAMES = [
  "O'Connor",
  'Müller',
  'Kowalski',
  '山田',
  'Smith',
  'Núñez',
  'Søndergaard',
  'Ó Briain',
  'Patel',
  'Wiśniewska',
  'Jones',
  'Dubois',
  'van der Berg',
  'Nguyễn',
] as const;

export const COMPANY_STEMS = [
  'Zoë',
  'Łódź Logistics',
  '東京 Trading',
  'Café Müller',
  "O'Brien & Sons",
  'Acme',
  'Northwind',
  'Brontë',
  'Škoda Parts',
  'Fjörd',
  'Greenfield',
  'Crown & Anchor',
  'Blue Harbour',
  'Nørrebro Design',
] as const;

export const COMPANY_SUFFIXES = [
  'Ltd',
  'plc',
  'GmbH',
  'Sp. z o.o.',
  'KK',
  'Holdings',
  'Group',
  'LLP',
  'S.A.',
] as const;

export const CONTACT_JOB_TITLES = [
  'Hiring Manager',
  'HR Business Partner',
  'Talent Acquisition Lead',
  'Directeur·rice des opérations',
  'Office Manager',
  '採用担当',
] as const;

export const TOWNS = ['London', 'Leeds', 'Łódź', '東京', 'Cork', 'Zürich', 'Bristol', 'Cardiff'] as const;
export const COUNTIES = [
  'Greater London',
  'West Yorkshire',
  'Łódzkie',
  'Tokyo',
  'County Cork',
  'Avon',
] as const;
export const COUNTRIES = ['United Kingdom', 'Poland', 'Japan', 'Ireland', 'Switzerland'] as const;
export const STREETS = [
  'High Street',
  'Station Road',
  'ulica Piotrkowska',
  'Rue de la Paix',
  'Church Lane',
] as const;

export const DESCRIPTION_SENTENCES = [
  'We are looking for a motivated person to join our friendly team.',
  'You will work closely with colleagues across the business & our clients.',
  'Flexible hours, 25 days\u2019 holiday and a pension scheme.',
  'Experience with customers is a plus — training is provided.',
  'Nous recherchons une personne rigoureuse et curieuse.',
  'チームで働くことが好きな方を歓迎します。',
  'Salary reviewed annually; bonus up to 10% < 15% cap.',
  'Great location near the station 🚆 with free parking.',
] as const;

export const REQUIREMENTS = [
  'Full UK driving licence',
  'Right to work in the UK',
  'DBS check',
  'GCSE Maths & English',
  '2+ years\u2019 experience',
  'Fluent Polish or Japanese',
  'Degree or equivalent',
] as const;
