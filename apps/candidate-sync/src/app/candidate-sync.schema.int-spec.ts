import { schemaDrift } from '@connector/persistence/testing';
import { createTestDatabase } from '@connector/testing';
import { SERVICE_NAME } from './candidate-sync.config';
import { CANDIDATE_SYNC_SCHEMA } from './candidate-sync.schema';

describe('candidate-sync tables', () => {
  it('match the entities once the migrations ran', async () => {
    const database = await createTestDatabase('drift');
    try {
      expect(await schemaDrift(database.url, { service: SERVICE_NAME, ...CANDIDATE_SYNC_SCHEMA })).toEqual(
        [],
      );
    } finally {
      await database.drop();
    }
  });
});
