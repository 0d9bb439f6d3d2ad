/**
 * Records fetched earlier in a run (contacts, companies), so an id is fetched once per run. Bounded: past
 * `capacity` the least recently used record is dropped (and would be fetched again), so memory does not grow
 * with the size of the ATS.
 */
export class EnrichmentCache<T> {
  private readonly records = new Map<number, T>();

  constructor(private readonly capacity: number) {}

  get(id: number): T | undefined {
    const record = this.records.get(id);
    if (record !== undefined) {
      this.records.delete(id);
      this.records.set(id, record);
    }
    return record;
  }

  has(id: number): boolean {
    return this.records.has(id);
  }

  set(id: number, record: T): void {
    this.records.delete(id);
    this.records.set(id, record);
    while (this.records.size > this.capacity) {
      const oldest = this.records.keys().next().value as number;
      this.records.delete(oldest);
    }
  }

  get size(): number {
    return this.records.size;
  }
}

/** The distinct ids a page needs that the cache does not hold yet, split into calls of at most `perCall`. */
export function idsToFetch(
  ids: ReadonlyArray<number | null | undefined>,
  cache: { has(id: number): boolean },
  perCall: number,
): number[][] {
  const wanted = [...new Set(ids.filter((id): id is number => typeof id === 'number' && id > 0))].filter(
    (id) => !cache.has(id),
  );
  const batches: number[][] = [];
  for (let i = 0; i < wanted.length; i += perCall) batches.push(wanted.slice(i, i + perCall));
  return batches;
}
