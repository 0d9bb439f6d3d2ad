import { schemaDrift } from '@connector/persistence/testing';
import { createTestDatabase } from '@connector/testing';
import { SERVICE_NAME } from './connector-registry.config';
import { CONNECTOR_REGISTRY_SCHEMA } from './connector-registry.schema';

describe('connector-registry tables', () => {
  it('match the entities once the migrations ran', async () => {
    const database = await createTestDatabase('drift');
    try {
      expect(
        await schemaDrift(database.url, { service: SERVICE_NAME, ...CONNECTOR_REGISTRY_SCHEMA }),
      ).toEqual([]);
    } finally {
      await database.drop();
    }
  });
});
