import { Global, Module } from '@nestjs/common';
import { getDataSourceToken } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import {
  DailyQuotaMigration1764000000000,
  PostgresDailyQuota,
  PostgresRateLimiter,
  RateLimitBucketMigration1763700000000,
} from '@connector/rate-limiter';
import { AtsAccessProvider } from './ats-access.provider';
import { AtsClientFactory, DAILY_QUOTA, RATE_LIMITER } from './ats-client.factory';
import { ConnectorDirectory } from './connector-directory';

/** Migrations a service using this module must include (the shared rate-limit buckets and daily quotas). */
export const ATS_ACCESS_MIGRATIONS = [
  RateLimitBucketMigration1763700000000,
  DailyQuotaMigration1764000000000,
];

/** For workers that call ATSs: connectors, access, clients and the shared budget. */
@Global()
@Module({
  providers: [
    ConnectorDirectory,
    AtsAccessProvider,
    AtsClientFactory,
    {
      provide: RATE_LIMITER,
      inject: [getDataSourceToken()],
      useFactory: (dataSource: DataSource) => new PostgresRateLimiter(dataSource),
    },
    {
      provide: DAILY_QUOTA,
      inject: [getDataSourceToken()],
      useFactory: (dataSource: DataSource) => new PostgresDailyQuota(dataSource),
    },
  ],
  exports: [ConnectorDirectory, AtsAccessProvider, AtsClientFactory, RATE_LIMITER, DAILY_QUOTA],
})
export class AtsAccessModule {}
