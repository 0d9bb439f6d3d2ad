import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsInt, IsObject, IsOptional, Max, Min } from 'class-validator';
import type { JobMappingSource } from '@connector/job-mapping';

/** For OpenAPI only: a mapping body is checked as a whole by `validateJobMapping` (INVALID_MAPPING). */
export class JobMappingDto {
  @ApiProperty({
    type: 'object',
    description:
      'target → source; title, location, description, requirements and status are required. A source is ' +
      '{from: "<dotted path in the ATS record>", default?: string} or {constant: string}',
    additionalProperties: {
      oneOf: [
        {
          type: 'object',
          properties: { from: { type: 'string' }, default: { type: 'string' } },
          required: ['from'],
        },
        { type: 'object', properties: { constant: { type: 'string' } }, required: ['constant'] },
      ],
    },
    example: { title: { from: 'Title' }, location: { from: 'Location', default: 'Remote' } },
  })
  fields!: Record<string, JobMappingSource>;

  @ApiPropertyOptional({
    type: 'object',
    description: 'only vacancies whose mapped status / location is listed are published (no list: no filter)',
    properties: {
      statuses: { type: 'array', items: { type: 'string' } },
      locations: { type: 'array', items: { type: 'string' } },
    },
    example: { statuses: ['Open'], locations: ['Leeds'] },
  })
  publish?: { statuses?: string[]; locations?: string[] };
}

/** Versions are a Postgres integer: a larger number is no version, not a database error. */
const MAX_VERSION = 2_147_483_647;

export class RollbackMappingDto {
  @ApiProperty({ minimum: 1, maximum: MAX_VERSION }) @IsInt() @Min(1) @Max(MAX_VERSION) version!: number;
}

export class PreviewMappingDto {
  @ApiPropertyOptional({ type: JobMappingDto, description: 'default: the current mapping' })
  @IsOptional()
  @IsObject()
  mapping?: Record<string, unknown>;

  @ApiPropertyOptional({ default: 5, minimum: 1, maximum: 20 })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(20)
  limit?: number;
}
