import { schemaDrift } from '@connector/persistence/testing';
import { createTestDatabase } from '@connector/testing';
import { SERVICE_NAME } from './document-service.config';
import { DOCUMENT_SERVICE_SCHEMA } from './document-service.schema';

describe('document-service tables', () => {
  it('match the entities once the migrations ran', async () => {
    const database = await createTestDatabase('drift');
    try {
      expect(await schemaDrift(database.url, { service: SERVICE_NAME, ...DOCUMENT_SERVICE_SCHEMA })).toEqual(
        [],
      );
    } finally {
      await database.drop();
    }
  });
});
