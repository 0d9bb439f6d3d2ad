import { Body, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiOperation, ApiResponse } from '@nestjs/swagger';
import { Admin } from '../auth/admin.decorator';
import type { AdminIdentity } from '../auth/api-keys';
import { ApiController } from '../common/api';
import { ListRunsQueryDto, StartRunDto } from './dto/run-requests.dto';
import type { RunView } from './run.view';
import { RunsService } from './runs.service';
import { ErrorResponse, RunAcceptedResponse, RunListResponse, RunResponse } from '../common/api-responses';

@ApiController('connectors/:id/runs', 'runs')
export class RunsController {
  constructor(private readonly runs: RunsService) {}

  @Post()
  @HttpCode(202)
  @ApiOperation({ summary: 'Start a data fetch ("Run")' })
  @ApiResponse({ status: 202, description: 'the run is queued', type: RunAcceptedResponse })
  @ApiResponse({
    status: 409,
    description: 'CONNECTOR_NOT_CONNECTED, or RUN_IN_PROGRESS with details.runId',
    type: ErrorResponse,
  })
  @ApiResponse({
    status: 429,
    description:
      'RUN_LIMIT: the account has MAX_CONCURRENT_RUNS_PER_ACCOUNT runs queued or running (see Retry-After); ' +
      'TOO_MANY_REQUESTS: too many wrong keys from this address',
    type: ErrorResponse,
  })
  @ApiResponse({
    status: 503,
    description: 'DEPENDENCY_UNAVAILABLE: the request could not be sent',
    type: ErrorResponse,
  })
  start(
    @Admin() admin: AdminIdentity,
    @Param('id') id: string,
    @Body() dto: StartRunDto,
  ): Promise<{ runId: string; status: 'queued' }> {
    return this.runs.start(admin, id, dto.mode);
  }

  @Get()
  @ApiOperation({ summary: 'Run history, newest first' })
  @ApiResponse({ status: 200, description: 'the runs', type: RunListResponse })
  async list(
    @Admin() admin: AdminIdentity,
    @Param('id') id: string,
    @Query() query: ListRunsQueryDto,
  ): Promise<{ runs: RunView[] }> {
    return { runs: await this.runs.list(admin, id, query.limit) };
  }

  @Get(':runId')
  @ApiOperation({ summary: 'One run: status, counts, API calls, errors, warnings, times' })
  @ApiResponse({ status: 200, description: 'the run', type: RunResponse })
  @ApiResponse({ status: 404, description: 'NOT_FOUND', type: ErrorResponse })
  get(
    @Admin() admin: AdminIdentity,
    @Param('id') id: string,
    @Param('runId') runId: string,
  ): Promise<RunView> {
    return this.runs.get(admin, id, runId);
  }
}
