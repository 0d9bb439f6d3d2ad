import { schemaDrift } from '@connector/persistence/testing';
import { createTestDatabase } from '@connector/testing';
import { DAILY_QUOTA_SCHEMA } from './daily-quota/daily-quota.migration';
import { RATE_LIMIT_BUCKET_SCHEMA } from './rate-limit-bucket.migration';

describe('rate-limiter tables', () => {
  it('match their entities once the migrations ran', async () => {
    const database = await createTestDatabase('drift');
    const shared = [RATE_LIMIT_BUCKET_SCHEMA, DAILY_QUOTA_SCHEMA];
    try {
      expect(
        await schemaDrift(database.url, {
          service: 'rate-limiter-test',
          entities: [],
          migrations: [],
          shared,
        }),
      ).toEqual([]);
    } finally {
      await database.drop();
    }
  });
});
