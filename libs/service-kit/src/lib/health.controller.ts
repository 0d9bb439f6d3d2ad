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

/**
 * `/health/live`: the process answers. `/health`: ready, meaning RabbitMQ and Postgres answer too and every
 * consumer consumes.
 */
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
        if (!this.rabbit.isConnected()) return rabbitmq.down({ message: 'not connected' });
        // A consumer that lost its queue takes no work: k8s should send this pod none until it is back.
        const missing = this.rabbit.missingConsumers();
        return missing.length === 0
          ? rabbitmq.up()
          : rabbitmq.down({ message: `consumer missing: ${missing.join('; ')}` });
      },
    ]);
  }
}
