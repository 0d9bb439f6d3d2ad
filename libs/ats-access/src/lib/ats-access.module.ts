import { Global, Module } from '@nestjs/common';
import { getDataSourceToken } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { PostgresRateLimiter, RateLimitBucketMigration1763700000000 } from '@connector/rate-limiter';
import { AtsAccessProvider } from './ats-access.provider';
import { AtsClientFactory, RATE_LIMITER } from './ats-client.factory';
import { ConnectorDirectory } from './connector-directory';

/** Migrations a service using this module must include (the shared rate-limit buckets). */
export const ATS_ACCESS_MIGRATIONS = [RateLimitBucketMigration1763700000000];

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
  ],
  exports: [ConnectorDirectory, AtsAccessProvider, AtsClientFactory, RATE_LIMITER],
})
export class AtsAccessModule {}
