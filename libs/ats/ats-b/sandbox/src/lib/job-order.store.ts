import { AtsBError } from './ats-b.error';
import {
  DEFAULT_BASE_TIME_MS,
  FLAG_DELETED,
  FLAG_OPEN,
  FLAG_PUBLIC,
  JobOrderGenerator,
} from './job-order.generator';
import { matchesTerm, type QueryTerm, type SearchFieldKinds } from './search-query';
import type { EntityChange } from './event-subscription.store';
import type { JobOrder, JobOrderAddress } from './sandbox.types';

/** What a recruiter (or a test, over /__sandbox) may change on a job; the vendor sets id and the dates added/modified. */
export type JobOrderPatch = Partial<Omit<JobOrder, 'id' | 'dateAdded' | 'dateLastModified' | 'address'>> & {
  address?: Partial<JobOrderAddress>;
};

export interface SeedOptions {
  jobs: number;
  seed?: number;
  baseTimeMs?: number;
}

export const JOB_SEARCH_FIELDS: SearchFieldKinds = {
  id: 'number',
  isOpen: 'bool',
  // An Integer at the vendor (1 published, 0 not): `isPublic:1`; `isPublic:true` is not a number.
  isPublic: 'number',
  isDeleted: 'bool',
  dateLastModified: 'number',
  dateAdded: 'number',
  status: 'text',
  employmentType: 'text',
};

const READ_CACHE_SIZE = 5_000;

export type JobSort = 'id' | '-id' | 'dateLastModified' | '-dateLastModified';

/**
 * Generated jobs are never materialised: only their flags and dateLastModified sit in typed arrays (for search);
 * a job is built on read from (seed, id). Changed and added jobs live in `overrides`.
 */
export class JobOrderStore {
  private generator = new JobOrderGenerator(0, 1);
  private flags = new Uint8Array(0);
  private modified = new Float64Array(0);
  private overrides = new Map<number, JobOrder>();
  private nextId = 1;
  private version = 0;
  private searchCache = new Map<string, { version: number; ids: number[] }>();
  /** Recently read generated jobs; bounded so 100 000 jobs never all become objects. */
  private readCache = new Map<number, JobOrder>();
  /** Hard-deleted ids (gone from reads and searches). */
  private removed = new Set<number>();
  /** Told of every insert, update and hard delete (the event subscriptions listen here); a reseed is not a change. */
  onChange: (change: EntityChange) => void = () => undefined;

  constructor(options: SeedOptions = { jobs: 0 }) {
    this.seed(options);
  }

  seed({ jobs, seed = 1, baseTimeMs = DEFAULT_BASE_TIME_MS }: SeedOptions): void {
    if (!Number.isInteger(jobs) || jobs < 0 || jobs > 5_000_000)
      throw AtsBError.badRequest('jobs must be an integer 0..5000000');
    this.generator = new JobOrderGenerator(jobs, seed, baseTimeMs);
    this.flags = new Uint8Array(jobs + 1);
    this.modified = new Float64Array(jobs + 1);
    for (let id = 1; id <= jobs; id++) {
      const head = this.generator.flagsOf(id);
      this.flags[id] = head.flags;
      this.modified[id] = head.dateLastModified;
    }
    this.overrides.clear();
    this.readCache.clear();
    this.removed.clear();
    this.nextId = jobs + 1;
    this.bump();
  }

  get seedInfo(): { jobs: number; seed: number; baseTimeMs: number } {
    return { jobs: this.generator.jobs, seed: this.generator.seed, baseTimeMs: this.generator.baseTimeMs };
  }

  /** Number of jobs, added ones included. */
  get size(): number {
    return this.nextId - 1;
  }

  get(id: number): JobOrder | undefined {
    if (this.removed.has(id)) return undefined;
    const changed = this.overrides.get(id);
    if (changed) return changed;
    if (!Number.isInteger(id) || id < 1 || id > this.generator.jobs) return undefined;
    let job = this.readCache.get(id);
    if (!job) {
      if (this.readCache.size >= READ_CACHE_SIZE) this.readCache.clear();
      job = this.generator.generate(id);
      this.readCache.set(id, job);
    }
    return job;
  }

  add(patch: JobOrderPatch = {}): JobOrder {
    const id = this.nextId++;
    const now = Date.now();
    const company = patch.clientCorporation ?? this.generator.company(1 + (id % this.generator.companyCount));
    const job: JobOrder = {
      id,
      title: `New job ${id}`,
      publicDescription: `<p>New job ${id}</p>`,
      description: null,
      skillList: null,
      employmentType: 'Permanent',
      status: 'Accepting Candidates',
      isOpen: true,
      isPublic: 1,
      isDeleted: false,
      numOpenings: 1,
      dateAdded: now,
      clientContact: null,
      ...patch,
      address: { address1: null, city: null, state: null, zip: null, countryID: null, ...patch.address },
      clientCorporation: company,
      dateLastModified: now,
    };
    this.overrides.set(id, job);
    this.bump();
    this.onChange({ entityName: 'JobOrder', entityId: id, entityEventType: 'INSERTED' });
    return job;
  }

  /** Applies a change the way an ATS user would: dateLastModified moves forward. */
  update(id: number, patch: JobOrderPatch): JobOrder {
    const current = this.get(id);
    if (!current) throw AtsBError.notFound('JobOrder', id);
    const job: JobOrder = {
      ...current,
      ...patch,
      id,
      ...(patch.address ? { address: { ...current.address, ...patch.address } } : {}),
      dateLastModified: Math.max(Date.now(), current.dateLastModified + 1),
    };
    this.overrides.set(id, job);
    if (id <= this.generator.jobs) {
      this.flags[id] =
        (job.isOpen ? FLAG_OPEN : 0) |
        (job.isPublic === 1 ? FLAG_PUBLIC : 0) |
        (job.isDeleted ? FLAG_DELETED : 0);
      this.modified[id] = job.dateLastModified;
    }
    this.bump();
    const updatedProperties = changedProperties(current, job);
    // A soft delete is an update of isDeleted (rest-api-docs `_entity.md`), so it is an UPDATED event too.
    if (updatedProperties.length > 0)
      this.onChange({ entityName: 'JobOrder', entityId: id, entityEventType: 'UPDATED', updatedProperties });
    return job;
  }

  /** A hard delete: the record is gone (404 on read, absent from searches); subscribers get DELETED. */
  remove(id: number): void {
    if (!this.get(id)) throw AtsBError.notFound('JobOrder', id);
    this.removed.add(id);
    this.overrides.delete(id);
    this.readCache.delete(id);
    this.bump();
    this.onChange({ entityName: 'JobOrder', entityId: id, entityEventType: 'DELETED' });
  }

  /** A recruiter closing a job: isOpen false and a closed status (ats-b.md); deleting is soft (isDeleted true). */
  close(id: number, options: { deleted?: boolean } = {}): JobOrder {
    return this.update(
      id,
      options.deleted ? { isDeleted: true } : { isOpen: false, status: 'Closed', dateClosed: Date.now() },
    );
  }

  /** Ids matching every term, ordered; cached until the next change so paging is cheap and stable. */
  search(terms: QueryTerm[], sort: JobSort = 'id'): number[] {
    const key = `${sort}|${JSON.stringify(terms)}`;
    const hit = this.searchCache.get(key);
    if (hit && hit.version === this.version) return hit.ids;
    const ids: number[] = [];
    const n = this.generator.jobs;
    const needsRecord = terms.some((t) => t.kind === 'text' || t.field === 'dateAdded');
    for (let id = 1; id <= n; id++) {
      if (this.removed.has(id)) continue;
      const f = this.flags[id] as number;
      const ts = this.modified[id] as number;
      const record = needsRecord ? this.get(id) : undefined;
      const get = (field: string): unknown => {
        switch (field) {
          case 'id':
            return id;
          case 'isOpen':
            return (f & FLAG_OPEN) !== 0;
          case 'isPublic':
            return (f & FLAG_PUBLIC) !== 0 ? 1 : 0;
          case 'isDeleted':
            return (f & FLAG_DELETED) !== 0;
          case 'dateLastModified':
            return ts;
          default:
            return record ? (record as unknown as Record<string, unknown>)[field] : undefined;
        }
      };
      if (terms.every((t) => matchesTerm(t, get))) ids.push(id);
    }
    for (let id = n + 1; id < this.nextId; id++) {
      const job = this.overrides.get(id);
      if (
        job &&
        terms.every((t) => matchesTerm(t, (field) => (job as unknown as Record<string, unknown>)[field]))
      )
        ids.push(id);
    }
    if (sort !== 'id') {
      const ts = (id: number): number =>
        id <= n ? (this.modified[id] as number) : (this.overrides.get(id)?.dateLastModified ?? 0);
      const cmp: Record<Exclude<JobSort, 'id'>, (a: number, b: number) => number> = {
        '-id': (a, b) => b - a,
        dateLastModified: (a, b) => ts(a) - ts(b) || a - b,
        '-dateLastModified': (a, b) => ts(b) - ts(a) || a - b,
      };
      ids.sort(cmp[sort]);
    }
    if (this.searchCache.size > 50) this.searchCache.clear();
    this.searchCache.set(key, { version: this.version, ids });
    return ids;
  }

  private bump(): void {
    this.version++;
  }
}

/** Names of the fields whose values differ; dateLastModified is the vendor's own bookkeeping and not listed. */
export function changedProperties(before: JobOrder, after: JobOrder): string[] {
  const keys = new Set([...Object.keys(before), ...Object.keys(after)]);
  keys.delete('dateLastModified');
  const b = before as unknown as Record<string, unknown>;
  const a = after as unknown as Record<string, unknown>;
  return [...keys].filter((k) => JSON.stringify(b[k] ?? null) !== JSON.stringify(a[k] ?? null)).sort();
}
