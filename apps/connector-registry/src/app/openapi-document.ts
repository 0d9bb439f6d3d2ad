import { NestFactory } from '@nestjs/core';
import type { OpenAPIObject } from '@nestjs/swagger';
import { loadConfig } from '@connector/service-kit';
import { AppModule } from './app.module';
import { ConnectorRegistryConfig } from './connector-registry.config';
import { openApiDocument } from './http-app';

/**
 * The admin API's OpenAPI document without a database or broker: Nest's preview mode builds the module graph
 * (controllers and their decorators) but runs no provider, so nothing connects anywhere.
 */
export async function buildOpenApiDocument(): Promise<OpenAPIObject> {
  const config = loadConfig(ConnectorRegistryConfig, { NODE_ENV: 'test', ADMIN_API_KEYS: 'docs:docs' });
  const app = await NestFactory.create(AppModule.forRoot(config), { preview: true, logger: false });
  try {
    return openApiDocument(app);
  } finally {
    await app.close();
  }
}
