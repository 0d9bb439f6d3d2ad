import { defaultJobMapping } from '@connector/ats-registry';
import type { SourceVacancy } from '@connector/ats-core';
import { buildVacancyUpsert, canonicalJson, contentHash } from './vacancy-content';

describe(buildVacancyUpsert.name, () => {
  const vacancy: SourceVacancy = {
    externalId: '12',
    record: {
      VacancyId: 12,
      Title: { Id: 1, Description: 'Nurse' },
      VacancyStatus: { Id: 1, Description: 'Open' },
      Location: { Id: 3, Description: 'Leeds' },
      Description: '<p>Care</p>',
      Requirements: 'NMC',
      Salary: '30k',
      Company: { CompanyId: 1000001, Name: 'Acme' },
    },
    company: { name: 'Acme', links: {} },
    updatedAt: '2026-11-20T10:00:00.000Z',
  };

  it('applies the mapping and hashes the content', () => {
    const upsert = buildVacancyUpsert('c1', 'ats-a', defaultJobMapping('ats-a'), vacancy)!;
    expect(upsert).toMatchObject({
      connectorId: 'c1',
      atsType: 'ats-a',
      externalId: '12',
      title: 'Nurse',
      location: 'Leeds',
      status: 'Open',
      fields: { salary: '30k', companyName: 'Acme' },
      company: { name: 'Acme', links: {} },
      updatedAt: '2026-11-20T10:00:00.000Z',
    });
    expect(upsert.contentHash).toMatch(/^[0-9a-f]{64}$/);
  });

  it('gives the same hash when only the modification time moved, another when content changed', () => {
    const mapping = defaultJobMapping('ats-a');
    const a = buildVacancyUpsert('c1', 'ats-a', mapping, vacancy)!;
    const b = buildVacancyUpsert('c1', 'ats-a', mapping, { ...vacancy, updatedAt: '2026-11-21T00:00:00Z' })!;
    const c = buildVacancyUpsert('c1', 'ats-a', mapping, {
      ...vacancy,
      record: { ...vacancy.record, Requirements: 'NMC pin' },
    })!;
    expect(b.contentHash).toBe(a.contentHash);
    expect(c.contentHash).not.toBe(a.contentHash);
  });

  it("leaves out a vacancy outside the mapping's publish lists", () => {
    const mapping = { ...defaultJobMapping('ats-a'), publish: { locations: ['London'] } };
    expect(buildVacancyUpsert('c1', 'ats-a', mapping, vacancy)).toBeUndefined();
  });
});

describe(contentHash.name, () => {
  it('does not depend on key order or undefined values', () => {
    expect(canonicalJson({ b: 1, a: { d: [1, 'x'], c: undefined } })).toBe('{"a":{"d":[1,"x"]},"b":1}');
    expect(contentHash({ a: 1, b: 2 })).toBe(contentHash({ b: 2, a: 1, c: undefined }));
  });
});
