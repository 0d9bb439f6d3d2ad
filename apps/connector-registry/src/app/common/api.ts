import { applyDecorators, Controller, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiTags, ApiUnauthorizedResponse } from '@nestjs/swagger';
import { ApiKeyGuard } from '../auth/api-key.guard';
import { ErrorResponse } from './api-responses';

export const API_PREFIX = 'api/v1';

/** A controller of the admin API: under `/api/v1`, behind the API-key guard, documented in OpenAPI. */
export function ApiController(path: string, tag: string): ClassDecorator {
  return applyDecorators(
    Controller(`${API_PREFIX}/${path}`),
    UseGuards(ApiKeyGuard),
    ApiBearerAuth(),
    ApiTags(tag),
    ApiUnauthorizedResponse({ description: 'UNAUTHORIZED: no key or a wrong one', type: ErrorResponse }),
  );
}
