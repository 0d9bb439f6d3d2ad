import { cutoffOf, deletedConnectorRetention, purge, type RetentionDatabase } from './retention';

describe('retention policy', () => {
  const now = new Date('2026-11-23T12:00:00.000Z');
  const failures = { name: 'failures', table: 'dead_letter', where: `"failed_at" < $1`, keepDays: 7 };

  it('keeps rows for their days, counted back from now', () => {
    expect(cutoffOf(now, 7)).toEqual(new Date('2026-11-16T12:00:00.000Z'));
    expect(cutoffOf(now, 30)).toEqual(new Date('2026-10-24T12:00:00.000Z'));
  });

  it("lets go of deleted connectors' rows once they were deleted long enough ago", () => {
    expect(deletedConnectorRetention('candidate_link', 30)).toEqual({
      name: 'candidate_link of connectors deleted more than 30 days ago',
      table: 'candidate_link',
      where: `"connector_id" IN (SELECT "connector_id" FROM "deleted_connector" WHERE "deleted_at" < $1)`,
      keepDays: 30,
    });
  });

  it('deletes batch after batch until one comes back short, with the cutoff as $1', async () => {
    const answers = [3, 3, 1];
    const calls: Array<{ sql: string; params?: unknown[] }> = [];
    const db: RetentionDatabase = {
      query: async (sql, params) => {
        calls.push({ sql, params });
        return [Array.from({ length: answers.shift() ?? 0 }, () => ({ gone: 1 })), 0];
      },
    };
    expect(await purge(db, failures, now, 3)).toBe(7);
    expect(calls).toHaveLength(3);
    expect(calls[0].params).toEqual([cutoffOf(now, 7)]);
    expect(calls[0].sql).toContain(`WHERE ("failed_at" < $1) LIMIT 3 FOR UPDATE SKIP LOCKED`);
    // A rule without days (e.g. used OAuth states) has no cutoff.
    await purge(db, { name: 'used states', table: 'oauth_state', where: '"used_at" IS NOT NULL' }, now);
    expect(calls[3].params).toEqual([]);
  });
});
