import { Body, Get, HttpCode, Param, Post, Put } from '@nestjs/common';
import { ApiBody, ApiOperation, ApiResponse } from '@nestjs/swagger';
import { Admin } from '../auth/admin.decorator';
import type { AdminIdentity } from '../auth/api-keys';
import { ApiController } from '../common/api';
import { JobMappingDto, PreviewMappingDto, RollbackMappingDto } from './dto/mapping-requests.dto';
import { MappingService, type MappingView } from './mapping.service';
import {
  ErrorResponse,
  MappingPreviewResponse,
  MappingResponse,
  MappingVersionsResponse,
} from '../common/api-responses';

@ApiController('connectors/:id/mapping', 'mapping')
export class MappingController {
  constructor(private readonly mappings: MappingService) {}

  @Get()
  @ApiOperation({ summary: 'The current job mapping' })
  @ApiResponse({ status: 200, description: 'the mapping', type: MappingResponse })
  current(@Admin() admin: AdminIdentity, @Param('id') id: string): Promise<MappingView> {
    return this.mappings.current(admin, id);
  }

  /** The body is typed `unknown` on purpose: every problem with it is an INVALID_MAPPING with its path. */
  @Put()
  @ApiBody({ type: JobMappingDto })
  @ApiOperation({ summary: 'Save a new version of the mapping' })
  @ApiResponse({ status: 200, description: 'the saved version', type: MappingResponse })
  @ApiResponse({
    status: 400,
    description: 'INVALID_MAPPING, details.errors lists each problem',
    type: ErrorResponse,
  })
  save(@Admin() admin: AdminIdentity, @Param('id') id: string, @Body() body: unknown): Promise<MappingView> {
    return this.mappings.save(admin, id, body);
  }

  @Get('versions')
  @ApiOperation({ summary: 'Every saved version, newest first' })
  @ApiResponse({ status: 200, description: 'the versions', type: MappingVersionsResponse })
  async versions(
    @Admin() admin: AdminIdentity,
    @Param('id') id: string,
  ): Promise<{ versions: MappingView[] }> {
    return { versions: await this.mappings.versions(admin, id) };
  }

  @Post('rollback')
  @HttpCode(200)
  @ApiOperation({ summary: "Save an earlier version's mapping as a new version" })
  @ApiResponse({ status: 200, description: 'the new version', type: MappingResponse })
  rollback(
    @Admin() admin: AdminIdentity,
    @Param('id') id: string,
    @Body() dto: RollbackMappingDto,
  ): Promise<MappingView> {
    return this.mappings.rollback(admin, id, dto.version);
  }

  @Post('preview')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Apply a mapping (or the current one) to a few live vacancies; nothing is published',
  })
  @ApiResponse({ status: 200, description: 'the vacancies as published', type: MappingPreviewResponse })
  @ApiResponse({
    status: 503,
    description: 'DEPENDENCY_UNAVAILABLE: vacancy-sync did not answer',
    type: ErrorResponse,
  })
  preview(
    @Admin() admin: AdminIdentity,
    @Param('id') id: string,
    @Body() dto: PreviewMappingDto,
  ): Promise<{ vacancies: unknown }> {
    return this.mappings.preview(admin, id, dto);
  }
}
