import { Controller, Module } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { PrometheusController, PrometheusModule } from '@willsoto/nestjs-prometheus';
import { collectProcessMetrics } from '@connector/observability';

/** `/metrics` in Prometheus' text format; not part of the admin API, so not in its OpenAPI document. */
@ApiExcludeController()
@Controller()
export class MetricsController extends PrometheusController {}

/**
 * `/metrics` on every service, through @willsoto/nestjs-prometheus over prom-client's default registry (where
 * the libs declare their metrics), with the process metrics registered once per process.
 */
@Module({
  imports: [PrometheusModule.register({ controller: MetricsController, defaultMetrics: { enabled: false } })],
})
export class MetricsModule {
  constructor() {
    collectProcessMetrics();
  }
}
