import { EnrichmentCache, idsToFetch } from './enrichment-cache';

describe(idsToFetch.name, () => {
  it('asks once per distinct id the run has not fetched, in calls of at most `perCall` ids', () => {
    const cache = new EnrichmentCache<string>(10);
    cache.set(2, 'two');
    expect(idsToFetch([1, 2, 1, null, undefined, 3], cache, 100)).toEqual([[1, 3]]);
    expect(idsToFetch([1, 2, 3, 4, 5], new EnrichmentCache(10), 2)).toEqual([[1, 2], [3, 4], [5]]);
    expect(idsToFetch([2, null], cache, 100)).toEqual([]);
  });
});

describe(EnrichmentCache.name, () => {
  it('keeps at most `capacity` records, dropping the least recently used', () => {
    const cache = new EnrichmentCache<string>(2);
    cache.set(1, 'a');
    cache.set(2, 'b');
    expect(cache.get(1)).toBe('a'); // 1 is now the most recent
    cache.set(3, 'c');
    expect(cache.has(2)).toBe(false);
    expect(cache.has(1)).toBe(true);
    expect(cache.size).toBe(2);
  });
});
