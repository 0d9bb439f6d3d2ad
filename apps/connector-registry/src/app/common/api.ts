import { applyDecorators, Controller, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiResponse, ApiTags } from '@nestjs/swagger';
import { ApiKeyGuard } from '../auth/api-key.guard';

export const API_PREFIX = 'api/v1';

/** A controller of the admin API: under `/api/v1`, behind the API-key guard, documented in OpenAPI. */
export function ApiController(path: string, tag: string): ClassDecorator {
  return applyDecorators(
    Controller(`${API_PREFIX}/${path}`),
    UseGuards(ApiKeyGuard),
    ApiBearerAuth(),
    ApiResponse({ status: 401, description: 'UNAUTHORIZED: no key or a wrong one' }),
    ApiResponse({
      status: 429,
      description: 'TOO_MANY_REQUESTS: too many wrong keys from this address (Retry-After)',
    }),
    ApiTags(tag),
  );
}
