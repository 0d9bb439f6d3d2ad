import type { ServerResponse } from 'node:http';
import type { INestApplication } from '@nestjs/common';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { DocumentBuilder, type OpenAPIObject, type SchemaObject, SwaggerModule } from '@nestjs/swagger';
import { AtsRegistry } from '@connector/ats-core';
import { withKnownAtsTypes } from '@connector/ats-registry';
import { jsonSchemasOf, VacancyUpsertedDto } from '@connector/contracts';
import { RegistryExceptionFilter } from './common/registry-exception.filter';
import { createValidationPipe } from './common/validation';
import type { ConnectorRegistryConfig } from './connector-registry.config';
import { parseTrustProxy } from './trust-proxy';

const API_DOCS_PATH = 'api/docs';

/**
 * The HTTP side of the registry: validation (unknown fields refused), the one error shape, and OpenAPI at
 * `/api/docs` (JSON at `/api/docs-json`). Only the HTTP app gets these; the RabbitMQ consumer keeps its own.
 * Behind a proxy, `TRUST_PROXY` makes Express take the client address from X-Forwarded-For (`request.ip`).
 */
export function configureHttp(
  app: INestApplication,
  config: Pick<ConnectorRegistryConfig, 'TRUST_PROXY'>,
): void {
  const trustProxy = parseTrustProxy(config.TRUST_PROXY);
  if (trustProxy !== false) (app as NestExpressApplication).set('trust proxy', trustProxy);
  app.useGlobalPipes(createValidationPipe(app.get(AtsRegistry)));
  app.useGlobalFilters(new RegistryExceptionFilter());
  // Swagger UI's page and assets: its own scripts only; its inline styles (its page has a <style>).
  app.use(`/${API_DOCS_PATH}`, (_request: unknown, response: ServerResponse, next: () => void) => {
    response.setHeader('Content-Security-Policy', API_DOCS_CSP);
    response.setHeader('X-Content-Type-Options', 'nosniff');
    next();
  });
  SwaggerModule.setup(API_DOCS_PATH, app, openApiDocument(app));
}

const API_DOCS_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "form-action 'none'",
].join('; ');

/** The admin API's OpenAPI document; also committed as docs/openapi.json (`npm run contracts`). */
export function openApiDocument(app: INestApplication): OpenAPIObject {
  const document = SwaggerModule.createDocument(
    app,
    new DocumentBuilder()
      .setTitle('connector-registry admin API')
      .setDescription(
        'Connectors, job mappings and runs of an account. Every /api/v1 request needs ' +
          '`Authorization: Bearer <key>`; errors are `{statusCode, code, message, details?}`.',
      )
      .setVersion('1')
      .addBearerAuth()
      .build(),
  );
  // The message schemas the responses embed (a preview's vacancies), from the same classes as docs/asyncapi.yaml.
  const messageSchemas = withKnownAtsTypes(
    jsonSchemasOf([VacancyUpsertedDto]) as Record<string, SchemaObject>,
  );
  document.components = {
    ...document.components,
    schemas: { ...document.components?.schemas, ...messageSchemas },
  };
  return document;
}
