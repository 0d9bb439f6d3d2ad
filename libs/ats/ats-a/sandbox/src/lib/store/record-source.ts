/** What the search engine needs from a collection: ids in ascending order and (cheap) field access. */
export interface RecordSource<T> {
  /** Bumped on every change, so cached search results can be recognised as stale. */
  readonly version: number;
  count(): number;
  has(id: number): boolean;
  get(id: number): T | undefined;
  /** A top-level field; may be a cheaper form than the record's (epoch ms for dates, number for links). */
  field(id: number, name: string): unknown;
  /** Visits ids in ascending order: the stable paging order. */
  forEachId(visit: (id: number) => void): void;
}

/**
 * What a search sees of records written by clients: those written more than `lagMs` ago (the vendor's search
 * index trails its writes). A lag of 0 is the store itself.
 */
export function indexedView<T extends { CreationDate: string }>(
  store: MapStore<T>,
  lagMs: number,
  now: () => number,
): RecordSource<T> {
  if (lagMs <= 0) return store;
  const indexedBefore = now() - lagMs;
  const indexed = (id: number): boolean => {
    const record = store.get(id);
    return record !== undefined && Date.parse(record.CreationDate) <= indexedBefore;
  };
  let count = 0;
  store.forEachId((id) => (count += indexed(id) ? 1 : 0));
  // A new view per search: the engine's cache (keyed on the source object) never serves it stale results.
  return {
    version: store.version,
    count: () => count,
    has: indexed,
    get: (id) => (indexed(id) ? store.get(id) : undefined),
    field: (id, name) => (indexed(id) ? store.field(id, name) : undefined),
    forEachId: (visit) => store.forEachId((id) => indexed(id) && visit(id)),
  };
}

/** Records written by clients (candidates, applications), ids handed out in increasing order. */
export class MapStore<T extends object> implements RecordSource<T> {
  private readonly records = new Map<number, T>();
  private nextId: number;
  version = 0;

  constructor(private readonly firstId: number) {
    this.nextId = firstId;
  }

  allocateId(): number {
    return this.nextId++;
  }

  set(id: number, record: T): void {
    this.records.set(id, record);
    this.version++;
  }

  count(): number {
    return this.records.size;
  }

  has(id: number): boolean {
    return this.records.has(id);
  }

  get(id: number): T | undefined {
    return this.records.get(id);
  }

  field(id: number, name: string): unknown {
    const record = this.records.get(id);
    return record === undefined ? undefined : (record as Record<string, unknown>)[name];
  }

  forEachId(visit: (id: number) => void): void {
    // Map iteration follows insertion order, which is ascending id order here.
    for (const id of this.records.keys()) visit(id);
  }

  values(): T[] {
    return [...this.records.values()];
  }

  clear(): void {
    this.records.clear();
    this.nextId = this.firstId;
    this.version++;
  }
}

/** Read-only records built on demand from their index (generated companies and contacts). */
export class GeneratedStore<T extends object> implements RecordSource<T> {
  readonly version = 0;

  constructor(
    private readonly size: number,
    private readonly idOf: (index: number) => number,
    private readonly indexOf: (id: number) => number,
    private readonly build: (index: number) => T,
  ) {}

  count(): number {
    return this.size;
  }

  has(id: number): boolean {
    return this.indexOf(id) >= 0;
  }

  get(id: number): T | undefined {
    const index = this.indexOf(id);
    return index < 0 ? undefined : this.build(index);
  }

  field(id: number, name: string): unknown {
    const record = this.get(id);
    return record === undefined ? undefined : (record as Record<string, unknown>)[name];
  }

  forEachId(visit: (id: number) => void): void {
    for (let i = 0; i < this.size; i++) visit(this.idOf(i));
  }
}
