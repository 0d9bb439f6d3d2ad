import { Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiOperation, ApiPropertyOptional, ApiResponse } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, IsString, Max, Min } from 'class-validator';
import { Admin } from '../auth/admin.decorator';
import type { AdminIdentity } from '../auth/api-keys';
import { ApiController } from '../common/api';
import { type FailureView, FailuresService } from './failures.service';
import { ErrorResponse, FailureListResponse, FailureResponse, ReplayResponse } from '../common/api-responses';

export class ListFailuresQueryDto {
  @ApiPropertyOptional() @IsOptional() @IsString() connectorId?: string;
  @ApiPropertyOptional({ default: 50, minimum: 1, maximum: 200 })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(200)
  limit?: number;
}

@ApiController('failures', 'failures')
export class FailuresController {
  constructor(private readonly failures: FailuresService) {}

  @Get()
  @ApiOperation({ summary: "The account's failed messages (dead letters), newest first" })
  @ApiResponse({ status: 200, description: 'the failures', type: FailureListResponse })
  async list(
    @Admin() admin: AdminIdentity,
    @Query() query: ListFailuresQueryDto,
  ): Promise<{ failures: FailureView[] }> {
    return { failures: await this.failures.list(admin, query) };
  }

  @Get(':failureId')
  @ApiOperation({ summary: 'One failure with the message that failed' })
  @ApiResponse({ status: 200, description: 'the failure', type: FailureResponse })
  @ApiResponse({ status: 404, description: 'NOT_FOUND', type: ErrorResponse })
  get(@Admin() admin: AdminIdentity, @Param('failureId') id: string): Promise<FailureView> {
    return this.failures.get(admin, id);
  }

  @Post(':failureId/replay')
  @HttpCode(202)
  @ApiOperation({ summary: 'Send the message back to the queue it failed in' })
  @ApiResponse({ status: 202, description: 'put back on its queue', type: ReplayResponse })
  @ApiResponse({ status: 404, description: 'NOT_FOUND', type: ErrorResponse })
  @ApiResponse({
    status: 409,
    description: 'NOT_REPLAYABLE: a request, or a failure that is not retryable; the reason says which',
    type: ErrorResponse,
  })
  replay(@Admin() admin: AdminIdentity, @Param('failureId') id: string): Promise<{ replayed: true }> {
    return this.failures.replay(admin, id);
  }
}

@ApiController('connectors/:id/failures', 'failures')
export class ConnectorFailuresController {
  constructor(private readonly failures: FailuresService) {}

  @Get()
  @ApiOperation({ summary: "A connector's failed messages, newest first" })
  @ApiResponse({ status: 200, description: 'the failures', type: FailureListResponse })
  async list(
    @Admin() admin: AdminIdentity,
    @Param('id') connectorId: string,
    @Query() query: ListFailuresQueryDto,
  ): Promise<{ failures: FailureView[] }> {
    return { failures: await this.failures.list(admin, { ...query, connectorId }) };
  }
}
