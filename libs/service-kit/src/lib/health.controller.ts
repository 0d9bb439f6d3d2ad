import { Controller, Get } from '@nestjs/common';
import { ApiOkResponse } from '@nestjs/swagger';
import {
  HealthCheck,
  HealthCheckService,
  HealthIndicatorService,
  type HealthCheckResult,
  TypeOrmHealthIndicator,
} from '@nestjs/terminus';
import { RabbitConnection } from '@connector/messaging';

/** `/health/live`: the process answers. `/health`: ready, meaning RabbitMQ and Postgres answer too. */
@Controller('health')
export class HealthController {
  constructor(
    private readonly health: HealthCheckService,
    private readonly database: TypeOrmHealthIndicator,
    private readonly indicators: HealthIndicatorService,
    private readonly rabbit: RabbitConnection,
  ) {}

  @Get('live')
  @ApiOkResponse({
    description: 'the process answers (liveness)',
    schema: {
      type: 'object',
      properties: { status: { type: 'string', enum: ['ok'] } },
      required: ['status'],
    },
  })
  live(): { status: 'ok' } {
    return { status: 'ok' };
  }

  @Get()
  @HealthCheck()
  ready(): Promise<HealthCheckResult> {
    return this.health.check([
      () => this.database.pingCheck('postgres', { timeout: 2_000 }),
      () => {
        const rabbitmq = this.indicators.check('rabbitmq');
        return this.rabbit.isConnected() ? rabbitmq.up() : rabbitmq.down({ message: 'not connected' });
      },
    ]);
  }
}
