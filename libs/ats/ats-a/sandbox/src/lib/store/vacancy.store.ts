import {
  DEFAULT_VACANCY_STATUS,
  ID_BASE,
  VACANCY_STATUSES,
  type Link,
  type PickListItem,
} from '../ats-a.protocol';
import type { Vacancy } from '../ats-a.records';
import type { GeneratedDataset } from '../generator/dataset.generator';
import { JOB_TITLES, LOCATIONS } from '../generator/sample.words';
import { notFound, validation } from '../sandbox.error';
import type { RecordSource } from './record-source';

/** Admin input for adding or changing a vacancy: pick lists may be given by description, links by id. */
export interface VacancyPatch {
  Title?: string | PickListItem;
  VacancyStatus?: string | number | PickListItem;
  Location?: string | PickListItem | null;
  Company?: number | Link | null;
  Contact?: number | Link | null;
  Salary?: string | null;
  Description?: string | null;
  Requirements?: string | null;
  IncludeOnSite?: boolean;
  DatePosted?: string | null;
  AdvertisingEndDate?: string | null;
}

const PATCHABLE_FIELDS: readonly string[] = [
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
];

/**
 * Generated vacancies plus admin edits: an edited or added vacancy is kept whole in `overrides`; untouched ones
 * are served from the compact data set.
 */
export class VacancyStore implements RecordSource<Vacancy> {
  private readonly overrides = new Map<number, Vacancy>();
  private readonly removed = new Set<number>();
  private readonly added: number[] = [];
  private nextId: number;
  version = 0;

  constructor(
    private readonly dataset: GeneratedDataset,
    private readonly now: () => number = Date.now,
  ) {
    this.nextId = dataset.vacancyId(dataset.vacancyCount);
  }

  private baseIndex(id: number): number {
    const index = id - ID_BASE.vacancy - 1;
    return Number.isInteger(index) && index >= 0 && index < this.dataset.vacancyCount ? index : -1;
  }

  count(): number {
    return this.dataset.vacancyCount + this.added.length - this.removed.size;
  }

  has(id: number): boolean {
    return !this.removed.has(id) && (this.overrides.has(id) || this.baseIndex(id) >= 0);
  }

  get(id: number): Vacancy | undefined {
    if (this.removed.has(id)) return undefined;
    const override = this.overrides.get(id);
    if (override) return override;
    const index = this.baseIndex(id);
    return index < 0 ? undefined : this.dataset.vacancy(index);
  }

  field(id: number, name: string): unknown {
    if (this.removed.has(id)) return undefined;
    const override = this.overrides.get(id);
    if (override) return (override as unknown as Record<string, unknown>)[name];
    const i = this.baseIndex(id);
    if (i < 0) return undefined;
    const d = this.dataset;
    // Fast paths for what clients filter on, so a scan over 100 000 vacancies builds no records.
    switch (name) {
      case 'VacancyId':
        return id;
      case 'ModificationDate':
        return d.modified[i];
      case 'CreationDate':
        return d.created[i];
      case 'DatePosted':
        return Number.isNaN(d.posted[i]) ? null : d.posted[i];
      case 'AdvertisingEndDate':
        return Number.isNaN(d.advertisingEnd[i]) ? null : d.advertisingEnd[i];
      case 'IncludeOnSite':
        return d.onSite[i] === 1;
      case 'VacancyStatus':
        return VACANCY_STATUSES[d.status[i] - 1];
      case 'Title':
        return JOB_TITLES[d.title[i]];
      case 'Company':
        return d.vacancyCompany[i] || null;
      case 'Contact':
        return d.vacancyContact[i] || null;
      default:
        return (d.vacancy(i) as unknown as Record<string, unknown>)[name];
    }
  }

  forEachId(visit: (id: number) => void): void {
    const n = this.dataset.vacancyCount;
    const hasRemovals = this.removed.size > 0;
    for (let i = 0; i < n; i++) {
      const id = this.dataset.vacancyId(i);
      if (!hasRemovals || !this.removed.has(id)) visit(id);
    }
    for (const id of this.added) if (!this.removed.has(id)) visit(id);
  }

  add(patch: VacancyPatch): Vacancy {
    const now = new Date(this.now()).toISOString();
    const base: Vacancy = {
      VacancyId: this.nextId++,
      Title: JOB_TITLES[0],
      VacancyStatus:
        VACANCY_STATUSES.find((s) => s.Description === DEFAULT_VACANCY_STATUS) ?? VACANCY_STATUSES[0],
      Location: null,
      Company: null,
      Contact: null,
      Salary: null,
      Description: null,
      Requirements: null,
      IncludeOnSite: true,
      DatePosted: now,
      AdvertisingEndDate: null,
      CreationDate: now,
      ModificationDate: now,
    };
    const vacancy = applyPatch(base, patch, now);
    this.overrides.set(vacancy.VacancyId, vacancy);
    this.added.push(vacancy.VacancyId);
    this.version++;
    return vacancy;
  }

  /** Changes fields and bumps ModificationDate (strictly later than before, so incremental syncs see it). */
  update(id: number, patch: VacancyPatch): Vacancy {
    const current = this.get(id);
    if (!current) throw notFound(`Vacancy ${id} not found`);
    const modified = Math.max(this.now(), Date.parse(current.ModificationDate) + 1000);
    const vacancy = applyPatch(current, patch, new Date(modified).toISOString());
    this.overrides.set(id, vacancy);
    this.version++;
    return vacancy;
  }

  remove(id: number): void {
    if (!this.has(id)) throw notFound(`Vacancy ${id} not found`);
    this.removed.add(id);
    this.version++;
  }
}

function applyPatch(current: Vacancy, patch: VacancyPatch, modificationDate: string): Vacancy {
  if (typeof patch !== 'object' || patch === null || Array.isArray(patch))
    throw validation('Body must be an object');
  for (const key of Object.keys(patch)) {
    if (!PATCHABLE_FIELDS.includes(key)) throw validation(`Field ${key} cannot be set`);
  }
  const next: Vacancy = { ...current, ModificationDate: modificationDate };
  if (patch.Title !== undefined) next.Title = pickListValue('Title', patch.Title, JOB_TITLES, 900);
  if (patch.VacancyStatus !== undefined) {
    const status = patch.VacancyStatus;
    const found =
      typeof status === 'number'
        ? VACANCY_STATUSES.find((s) => s.Id === status)
        : typeof status === 'string'
          ? VACANCY_STATUSES.find((s) => s.Description.toLowerCase() === status.toLowerCase())
          : VACANCY_STATUSES.find((s) => s.Id === status.Id);
    if (!found) throw validation(`Unknown VacancyStatus ${JSON.stringify(status)}`);
    next.VacancyStatus = found;
  }
  if (patch.Location !== undefined) {
    next.Location =
      patch.Location === null ? null : pickListValue('Location', patch.Location, LOCATIONS, 950);
  }
  if (patch.Company !== undefined) next.Company = linkValue('Company', patch.Company);
  if (patch.Contact !== undefined) next.Contact = linkValue('Contact', patch.Contact);
  for (const key of ['Salary', 'Description', 'Requirements'] as const) {
    const value = patch[key];
    if (value === undefined) continue;
    if (value !== null && typeof value !== 'string') throw validation(`${key} must be a string or null`);
    next[key] = value;
  }
  if (patch.IncludeOnSite !== undefined) {
    if (typeof patch.IncludeOnSite !== 'boolean') throw validation('IncludeOnSite must be a boolean');
    next.IncludeOnSite = patch.IncludeOnSite;
  }
  for (const key of ['DatePosted', 'AdvertisingEndDate'] as const) {
    const value = patch[key];
    if (value === undefined) continue;
    if (value !== null && (typeof value !== 'string' || Number.isNaN(Date.parse(value)))) {
      throw validation(`${key} must be an ISO date or null`);
    }
    next[key] = value === null ? null : new Date(value).toISOString();
  }
  return next;
}

function pickListValue(
  field: string,
  value: string | PickListItem,
  known: readonly PickListItem[],
  freeTextId: number,
): PickListItem {
  if (typeof value === 'string') {
    return known.find((item) => item.Description === value) ?? { Id: freeTextId, Description: value };
  }
  if (typeof value !== 'object' || typeof value.Id !== 'number' || typeof value.Description !== 'string') {
    throw validation(`${field} must be a description or {Id, Description}`);
  }
  return { Id: value.Id, Description: value.Description };
}

function linkValue(field: string, value: number | Link | null): Link | null {
  if (value === null) return null;
  const id = typeof value === 'number' ? value : value?.Id;
  if (!Number.isInteger(id)) throw validation(`${field} must be an id, {Id} or null`);
  return { Id: id };
}
