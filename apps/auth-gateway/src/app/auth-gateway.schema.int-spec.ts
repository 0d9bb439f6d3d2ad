import { schemaDrift } from '@connector/persistence/testing';
import { createTestDatabase } from '@connector/testing';
import { SERVICE_NAME } from './auth-gateway.config';
import { AUTH_GATEWAY_SCHEMA } from './auth-gateway.schema';

describe('auth-gateway tables', () => {
  it('match the entities once the migrations ran', async () => {
    const database = await createTestDatabase('drift');
    try {
      expect(await schemaDrift(database.url, { service: SERVICE_NAME, ...AUTH_GATEWAY_SCHEMA })).toEqual([]);
    } finally {
      await database.drop();
    }
  });
});
