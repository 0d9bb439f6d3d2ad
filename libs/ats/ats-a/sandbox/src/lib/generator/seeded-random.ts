/** Small deterministic PRNG (mulberry32): same seed, same sequence, on every platform. */
export class SeededRandom {
  private state: number;

  constructor(...seedParts: number[]) {
    this.state = hashInts(seedParts);
  }

  /** Float in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) | 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** Integer in [min, max]. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  chance(probability: number): boolean {
    return this.next() < probability;
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)];
  }
}

/** Mixes several integers into one 32-bit seed, so (seed, index, stream) triples give independent sequences. */
function hashInts(parts: readonly number[]): number {
  let h = 0x811c9dc5;
  for (const part of parts) {
    h = Math.imul(h ^ (part | 0), 0x01000193);
    h ^= h >>> 13;
    h = Math.imul(h, 0x5bd1e995);
    h ^= Math.floor(part / 4294967296) | 0;
  }
  h ^= h >>> 15;
  return h >>> 0;
}
