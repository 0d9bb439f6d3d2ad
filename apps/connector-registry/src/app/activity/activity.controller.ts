import { Get, Param } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiResponse } from '@nestjs/swagger';
import { Admin } from '../auth/admin.decorator';
import type { AdminIdentity } from '../auth/api-keys';
import { ActivityResponse, ErrorResponse } from '../common/api-responses';
import { ApiController } from '../common/api';
import { ActivityService } from './activity.service';
import type { ActivityView } from './activity.view';

@ApiController('connectors/:id/activity', 'activity')
export class ActivityController {
  constructor(private readonly activity: ActivityService) {}

  @Get()
  @ApiOperation({
    summary: "The connector's work per day over the last 14 days (UTC)",
    description:
      'Per day: ATS API calls of its vacancy runs, vacancies published (new or changed, and closed), records ' +
      'written to the ATS (candidates, applications, documents), and failures (failed messages and runs).',
  })
  @ApiOkResponse({ type: ActivityResponse })
  @ApiResponse({
    status: 404,
    description: 'NOT_FOUND (also for another account’s connector)',
    type: ErrorResponse,
  })
  get(@Admin() admin: AdminIdentity, @Param('id') id: string): Promise<ActivityView> {
    return this.activity.get(admin, id);
  }
}
