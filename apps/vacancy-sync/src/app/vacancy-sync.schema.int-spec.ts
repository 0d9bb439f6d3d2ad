import { schemaDrift } from '@connector/persistence/testing';
import { createTestDatabase } from '@connector/testing';
import { SERVICE_NAME } from './vacancy-sync.config';
import { VACANCY_SYNC_SCHEMA } from './vacancy-sync.schema';

describe('vacancy-sync tables', () => {
  it('match the entities once the migrations ran', async () => {
    const database = await createTestDatabase('drift');
    try {
      expect(await schemaDrift(database.url, { service: SERVICE_NAME, ...VACANCY_SYNC_SCHEMA })).toEqual([]);
    } finally {
      await database.drop();
    }
  });
});
