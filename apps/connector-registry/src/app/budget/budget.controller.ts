import { Get, Param } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiResponse } from '@nestjs/swagger';
import { Admin } from '../auth/admin.decorator';
import type { AdminIdentity } from '../auth/api-keys';
import { ApiController } from '../common/api';
import { BudgetService } from './budget.service';
import { BudgetView } from './budget.view';

@ApiController('connectors/:id/budget', 'budget')
export class BudgetController {
  constructor(private readonly budget: BudgetService) {}

  @Get()
  @ApiOperation({
    summary: "The daily call budget of the connector's customer system (an ATS with one)",
    description:
      'Calls used today (ours and everyone’s, from the ATS’s X-RateLimit-* headers), the limit, the reset, ' +
      'the projected use at the current rate, and work waiting for budget. Change the limit with ' +
      'PATCH /connectors/{id} {options:{dailyCallLimit}}: the plan follows at once.',
  })
  @ApiOkResponse({ type: BudgetView })
  @ApiResponse({ status: 400, description: 'NO_DAILY_BUDGET: the ATS has no daily call budget' })
  @ApiResponse({ status: 404, description: 'NOT_FOUND (also for another account’s connector)' })
  get(@Admin() admin: AdminIdentity, @Param('id') id: string): Promise<BudgetView> {
    return this.budget.get(admin, id);
  }
}
