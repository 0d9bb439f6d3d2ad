import { type DynamicModule, Module } from '@nestjs/common';
import { getDataSourceToken } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { type AddressAllowance, OutboundGuard, outboundGuard } from '@connector/ats-http';
import { AtsRegistry } from '@connector/ats-core';
import { atsRegistryProvider } from '@connector/ats-registry';
import { preparedStatements, type SharedSchema } from '@connector/persistence';
import {
  BatchedDailyQuota,
  DAILY_QUOTA_SCHEMA,
  PostgresRateLimiter,
  RATE_LIMIT_BUCKET_SCHEMA,
} from '@connector/rate-limiter';
import { AtsAccessProvider } from './ats-access.provider';
import { AtsClientFactory, DAILY_QUOTA, RATE_LIMITER } from './ats-client.factory';
import { ATS_SYSTEMS_OPTIONS, AtsSystems, type AtsSystemsOptions } from './ats-systems';
import { ConnectorDirectory } from './connector-directory';

/** Shared schemas a service using this module must list (the rate-limit buckets and daily quotas). */
export const ATS_ACCESS_SCHEMAS: SharedSchema[] = [RATE_LIMIT_BUCKET_SCHEMA, DAILY_QUOTA_SCHEMA];

/**
 * For workers that call ATSs: the ATS registry, connectors, access, clients, the shared budget and the SSRF guard.
 * `forRoot(core, …)`: core is a module exporting the service's MessagingModule (the registry and auth-gateway
 * are asked over RabbitMQ); `allowance` is the service's ALLOW_PRIVATE_ADDRESSES; `systems` its slots per ATS
 * system (ATS_SYSTEM_CONCURRENCY, ATS_SYSTEM_WAIT_MS).
 */
@Module({
  providers: [
    // The registered adapters, injected where a service asks them (its tests build their own registry).
    atsRegistryProvider,
    ConnectorDirectory,
    AtsAccessProvider,
    AtsClientFactory,
    AtsSystems,
    {
      provide: RATE_LIMITER,
      inject: [getDataSourceToken()],
      useFactory: (dataSource: DataSource) => new PostgresRateLimiter(preparedStatements(dataSource)),
    },
    {
      provide: DAILY_QUOTA,
      inject: [getDataSourceToken()],
      // A worker's burst takes several calls per statement; the plan is the same (BatchedDailyQuota). Its
      // statements run for every ATS call: prepared.
      useFactory: (dataSource: DataSource) => new BatchedDailyQuota(preparedStatements(dataSource)),
    },
  ],
  exports: [
    AtsRegistry,
    ConnectorDirectory,
    AtsAccessProvider,
    AtsClientFactory,
    AtsSystems,
    RATE_LIMITER,
    DAILY_QUOTA,
  ],
})
export class AtsAccessModule {
  static forRoot(
    core: DynamicModule,
    options: { allowance: AddressAllowance; systems?: Partial<AtsSystemsOptions> },
  ): DynamicModule {
    return {
      module: AtsAccessModule,
      imports: [core],
      providers: [
        // Every call of the clients built here, checked on the address it connects to.
        { provide: OutboundGuard, useValue: outboundGuard(options.allowance) },
        { provide: ATS_SYSTEMS_OPTIONS, useValue: options.systems ?? {} },
      ],
      exports: [OutboundGuard],
    };
  }
}
