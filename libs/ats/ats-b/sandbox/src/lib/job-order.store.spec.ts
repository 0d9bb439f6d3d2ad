import { JobOrderGenerator } from './job-order.generator';
import { JobOrderStore } from './job-order.store';
import { parseSearchQuery } from './search-query';
import { JOB_SEARCH_FIELDS } from './job-order.store';

const q = (s: string) => parseSearchQuery(s, JOB_SEARCH_FIELDS);

describe(JobOrderStore.name, () => {
  it('generates the same data for the same seed and different data for another', () => {
    const a = new JobOrderGenerator(500, 42);
    const b = new JobOrderGenerator(500, 42);
    const c = new JobOrderGenerator(500, 43);
    expect(a.generate(77)).toEqual(b.generate(77));
    expect(a.generate(77)).not.toEqual(c.generate(77));
  });

  it('varies the data: closed, private, deleted, sparse, unicode, HTML', () => {
    const store = new JobOrderStore({ jobs: 2000, seed: 5 });
    const jobs = Array.from({ length: 2000 }, (_, i) => store.get(i + 1)!);
    expect(jobs.some((j) => !j.isOpen)).toBe(true);
    expect(jobs.some((j) => j.isPublic === 0)).toBe(true);
    expect(jobs.some((j) => j.isDeleted)).toBe(true);
    expect(jobs.some((j) => j.clientContact === null)).toBe(true);
    expect(jobs.some((j) => j.skillList === null)).toBe(true);
    expect(jobs.some((j) => /[^ -~]/.test(j.title ?? ''))).toBe(true);
    expect(jobs.every((j) => j.publicDescription == null || /<\w+/.test(j.publicDescription))).toBe(true);
    expect(new Set(jobs.map((j) => j.dateLastModified)).size).toBeGreaterThan(1900);
    expect(jobs.every((j) => j.dateLastModified < Date.now())).toBe(true);
  });

  it('keeps the vendor data model: isPublic an Integer 1/0, never a boolean; empty fields null or absent, both', () => {
    const store = new JobOrderStore({ jobs: 500, seed: 5 });
    const jobs = Array.from({ length: 500 }, (_, i) => store.get(i + 1)!);
    expect(new Set(jobs.map((j) => j.isPublic))).toEqual(new Set([0, 1]));
    expect(jobs.every((j) => typeof j.isOpen === 'boolean' && typeof j.isDeleted === 'boolean')).toBe(true);
    expect(
      jobs.every((j) => Number.isInteger(j.dateLastModified) && Number.isInteger(j.address?.countryID ?? 0)),
    ).toBe(true);
    expect(jobs.some((j) => 'clientContact' in j && j.clientContact === null)).toBe(true);
    expect(jobs.some((j) => !('clientContact' in j))).toBe(true);
    expect(jobs.some((j) => j.address && !('address2' in j.address))).toBe(true);
    expect(jobs.some((j) => j.address?.address2 === null)).toBe(true);
    expect(store.add().isPublic).toBe(1);
  });

  it('search flags agree with the generated records', () => {
    const store = new JobOrderStore({ jobs: 1000, seed: 9 });
    const ids = store.search(q('isOpen:1 AND isDeleted:0 AND isPublic:1'));
    const expected = Array.from({ length: 1000 }, (_, i) => store.get(i + 1)!)
      .filter((j) => j.isOpen && !j.isDeleted && j.isPublic === 1)
      .map((j) => j.id);
    expect(ids).toEqual(expected);
  });

  it('updates bump dateLastModified and show up in incremental searches; close and delete drop out', () => {
    const store = new JobOrderStore({ jobs: 100, seed: 1 });
    const from = Date.now();
    const open = store.search(q('isOpen:1 AND isDeleted:0'));
    const [a, b, c] = open as [number, number, number];
    store.update(a, { title: 'Changed' });
    store.close(b);
    store.close(c, { deleted: true });
    const added = store.add({ title: 'Brand new' });
    expect(store.search(q(`isOpen:1 AND isDeleted:0 AND dateLastModified:[${from} TO *]`))).toEqual([
      a,
      added.id,
    ]);
    const after = store.search(q('isOpen:1 AND isDeleted:0'));
    expect(after).not.toContain(b);
    expect(after).not.toContain(c);
    expect(store.get(c)!.isDeleted).toBe(true);
    expect(store.get(b)).toMatchObject({ isOpen: false, status: 'Closed', dateClosed: expect.any(Number) });
    // A changes-only listing that does not ask for open jobs sees every change, closures included.
    expect(store.search(q(`dateLastModified:[${from} TO *]`))).toEqual([a, b, c, added.id]);
    expect(store.get(a)!.dateLastModified).toBeGreaterThanOrEqual(from);
  });

  it('unpublishing is isPublic 0, and an isPublic:1 search stops finding the job', () => {
    const store = new JobOrderStore({ jobs: 50, seed: 4 });
    const [id] = store.search(q('isOpen:1 AND isDeleted:0 AND isPublic:1')) as [number];
    store.update(id, { isPublic: 0 });
    expect(store.get(id)!.isPublic).toBe(0);
    expect(store.search(q('isOpen:1 AND isDeleted:0 AND isPublic:1'))).not.toContain(id);
    expect(store.search(q('isPublic:0'))).toContain(id);
  });

  // Seeding speed is measured in bench/, not here: a timed unit test fails on a loaded machine.
  it('keeps 100 000 jobs cheap: seeding adds only a few MB', () => {
    const before = process.memoryUsage().heapUsed;
    const store = new JobOrderStore({ jobs: 100_000, seed: 3 });
    expect(store.search(q('isOpen:1 AND isDeleted:0')).length).toBeGreaterThan(70_000);
    expect(process.memoryUsage().heapUsed - before).toBeLessThan(30 * 1024 * 1024);
    expect(store.get(99_999)!.id).toBe(99_999);
  });
});
