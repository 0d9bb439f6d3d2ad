import { Module } from '@nestjs/common';
import { getDataSourceToken } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { PostgresDailyQuota } from '@connector/rate-limiter';
import { BudgetController } from './budget.controller';
import { BudgetService, REGISTRY_QUOTA } from './budget.service';
import { AuthModule } from '../auth/auth.module';
import { RepositoriesModule } from '../repositories/repositories.module';

@Module({
  imports: [AuthModule, RepositoriesModule],
  controllers: [BudgetController],
  providers: [
    BudgetService,
    {
      provide: REGISTRY_QUOTA,
      inject: [getDataSourceToken()],
      useFactory: (dataSource: DataSource) => new PostgresDailyQuota(dataSource),
    },
  ],
  exports: [BudgetService],
})
export class BudgetModule {}
