import { Body, Delete, Get, HttpCode, Param, Patch, Post } from '@nestjs/common';
import { ApiOperation, ApiResponse } from '@nestjs/swagger';
import { Admin } from '../auth/admin.decorator';
import type { AdminIdentity } from '../auth/api-keys';
import { ApiController } from '../common/api';
import type { ConnectorView } from './connector.view';
import { ConnectorsService } from './connectors.service';
import { EventFeedService } from './event-feed.service';
import type { EventFeedView } from './event-feed.view';
import { CreateConnectorDto, TestConnectionDto, UpdateConnectorDto } from './dto/connector-requests.dto';
import type { ConnectionTestResult } from '@connector/ats-core';
import {
  ConnectionTestResponse,
  ConnectorListResponse,
  ConnectorResponse,
  ErrorResponse,
  EventFeedResponse,
} from '../common/api-responses';

@ApiController('connectors', 'connectors')
export class ConnectorsController {
  constructor(
    private readonly connectors: ConnectorsService,
    private readonly eventFeeds: EventFeedService,
  ) {}

  @Post('test')
  @HttpCode(200)
  @ApiOperation({ summary: 'Connection test of the set-up flow; nothing is saved' })
  @ApiResponse({
    status: 200,
    description: '{ok:true} or {ok:false, error:{code, message}}',
    type: ConnectionTestResponse,
  })
  @ApiResponse({
    status: 503,
    description: 'DEPENDENCY_UNAVAILABLE: auth-gateway did not answer',
    type: ErrorResponse,
  })
  test(@Admin() admin: AdminIdentity, @Body() dto: TestConnectionDto): Promise<ConnectionTestResult> {
    return this.connectors.test(admin, dto);
  }

  @Post()
  @ApiOperation({
    summary: 'Create a connector (client-credentials: the credentials are tested and stored first)',
  })
  @ApiResponse({ status: 201, description: 'the connector', type: ConnectorResponse })
  @ApiResponse({
    status: 422,
    description:
      'AUTH_FAILED, INVALID_URL, ATS_UNREACHABLE, ATS_ERROR; CONNECTOR_LIMIT: the account has MAX_CONNECTORS_PER_ACCOUNT connectors',
    type: ErrorResponse,
  })
  @ApiResponse({ status: 503, description: 'DEPENDENCY_UNAVAILABLE', type: ErrorResponse })
  create(@Admin() admin: AdminIdentity, @Body() dto: CreateConnectorDto): Promise<ConnectorView> {
    return this.connectors.create(admin, dto);
  }

  @Get()
  @ApiOperation({ summary: "The account's connectors, each with its last run" })
  @ApiResponse({ status: 200, description: 'the connectors', type: ConnectorListResponse })
  async list(@Admin() admin: AdminIdentity): Promise<{ connectors: ConnectorView[] }> {
    return { connectors: await this.connectors.list(admin) };
  }

  @Get(':id')
  @ApiResponse({ status: 200, description: 'the connector', type: ConnectorResponse })
  @ApiResponse({
    status: 404,
    description: 'NOT_FOUND (also for another account’s connector)',
    type: ErrorResponse,
  })
  get(@Admin() admin: AdminIdentity, @Param('id') id: string): Promise<ConnectorView> {
    return this.connectors.get(admin, id);
  }

  @Get(':id/event-feed')
  @ApiOperation({
    summary: "Whether the connector hears of its ATS's changes from events or by polling",
    description:
      "vacancy-sync's view: on the ATS's event subscription (read every pollSeconds; lastReadAt is the last " +
      'batch read), polling (with the reason), or off (the ATS has no event feed, or the connector is not active)',
  })
  @ApiResponse({ status: 200, description: 'the event feed status', type: EventFeedResponse })
  @ApiResponse({
    status: 404,
    description: 'NOT_FOUND (also for another account’s connector)',
    type: ErrorResponse,
  })
  @ApiResponse({
    status: 503,
    description: 'DEPENDENCY_UNAVAILABLE: vacancy-sync did not answer in time',
    type: ErrorResponse,
  })
  eventFeed(@Admin() admin: AdminIdentity, @Param('id') id: string): Promise<EventFeedView> {
    return this.eventFeeds.get(admin, id);
  }

  @Patch(':id')
  @ApiOperation({
    summary: 'Change name, options, config (client-credentials: tested again), or disable / enable',
  })
  @ApiResponse({ status: 200, description: 'the changed connector', type: ConnectorResponse })
  @ApiResponse({ status: 409, description: 'INVALID_STATUS_CHANGE', type: ErrorResponse })
  @ApiResponse({ status: 422, description: 'the new credentials were refused', type: ErrorResponse })
  update(
    @Admin() admin: AdminIdentity,
    @Param('id') id: string,
    @Body() dto: UpdateConnectorDto,
  ): Promise<ConnectorView> {
    return this.connectors.update(admin, id, dto);
  }

  @Delete(':id')
  @HttpCode(204)
  @ApiOperation({ summary: 'Erase its credentials and remove it' })
  @ApiResponse({ status: 204, description: 'removed' })
  async remove(@Admin() admin: AdminIdentity, @Param('id') id: string): Promise<void> {
    await this.connectors.remove(admin, id);
  }
}
