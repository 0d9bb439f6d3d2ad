import { registryRetention } from './registry-retention';

describe(registryRetention.name, () => {
  const rules = registryRetention({
    DEAD_LETTER_RETENTION_DAYS: 30,
    DELETED_CONNECTOR_RETENTION_DAYS: 45,
    RUN_HISTORY_DAYS: 14,
    RUN_HISTORY_PER_CONNECTOR: 200,
  });

  it('keeps run history, failures and finished erasures for their days, deleted connectors for theirs', () => {
    expect(rules.map((rule) => [rule.table, rule.keepDays])).toEqual([
      ['run', 14],
      ['connector_activity', 15],
      ['dead_letter', 30],
      ['candidate_erasure', 30],
      ['dead_letter', 45],
      ['job_mapping', 45],
      ['run', 45],
      ['admin_key_failure', 1],
      ['connector', 45],
    ]);
  });

  it('deletes a connector only after what refers to it, and only once deleted', () => {
    expect(rules.at(-1)).toMatchObject({ table: 'connector', where: '"deleted_at" < $1' });
    expect(rules[6].where).toBe(`"connector_id" IN (SELECT "id" FROM "connector" WHERE "deleted_at" < $1)`);
    // dead_letter.connector_id is any text: compared as text, never cast.
    expect(rules[4].where).toContain(`SELECT "id"::text FROM "connector"`);
  });

  it("keeps each connector's newest runs, never a queued or running one", () => {
    expect(rules[0]).toMatchObject({
      owners: { table: 'connector', key: 'id' },
      timeColumn: 'queued_at',
      where: `"status" NOT IN ('queued', 'running')`,
      keepNewest: 200,
    });
    // What the admin page's 14 days of activity counted from the runs it deletes goes to their days.
    expect(rules[0]).toHaveProperty('fold', expect.stringContaining('INSERT INTO "connector_activity"'));
  });
});
