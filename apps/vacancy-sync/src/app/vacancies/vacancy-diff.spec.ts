import { diffPage, expiryCheckDue, mayClose, type PublishedState } from './vacancy-diff';
import type { VacancyUpsert } from './vacancy-content';

const vacancy = (externalId: string, contentHash: string) => ({ externalId, contentHash }) as VacancyUpsert;

describe(diffPage.name, () => {
  it('publishes new, changed and reopened vacancies, and only marks the unchanged ones', () => {
    const published = new Map<string, PublishedState>([
      ['1', { contentHash: 'h1', live: true }],
      ['2', { contentHash: 'old', live: true }],
      ['3', { contentHash: 'h3', live: false }],
    ]);
    const diff = diffPage(
      [vacancy('1', 'h1'), vacancy('2', 'h2'), vacancy('3', 'h3'), vacancy('4', 'h4')],
      published,
    );
    expect(diff.upserts.map((v) => v.externalId)).toEqual(['2', '3', '4']);
    expect(diff.unchanged.map((v) => v.externalId)).toEqual(['1']);
  });

  it('counts a vacancy listed twice in a page once', () => {
    const diff = diffPage([vacancy('1', 'a'), vacancy('1', 'b')], new Map());
    expect(diff.upserts).toEqual([vacancy('1', 'b')]);
  });
});

describe(mayClose.name, () => {
  it('closes only after a complete full listing', () => {
    expect(mayClose({ mode: 'full', listingComplete: true })).toBe(true);
    expect(mayClose({ mode: 'full', listingComplete: false })).toBe(false);
    expect(mayClose({ mode: 'incremental', listingComplete: true })).toBe(false);
  });
});

describe(expiryCheckDue.name, () => {
  const now = new Date('2026-11-28T00:00:05Z');

  it('checks at the first run of a UTC day, and on a connector never synced', () => {
    expect(expiryCheckDue(undefined, now)).toBe(true);
    expect(expiryCheckDue(new Date('2026-11-27T23:59:59Z'), now)).toBe(true);
    expect(expiryCheckDue(new Date('2026-10-01T12:00:00Z'), now)).toBe(true);
  });

  it('does not check again the same day', () => {
    expect(expiryCheckDue(new Date('2026-11-28T00:00:00Z'), now)).toBe(false);
    expect(expiryCheckDue(now, new Date('2026-11-28T23:59:59Z'))).toBe(false);
  });
});
