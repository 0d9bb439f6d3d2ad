import { Module } from '@nestjs/common';
import { RepositoriesModule } from '../repositories/repositories.module';
import { RegistryMetrics } from './registry-metrics';

@Module({ imports: [RepositoriesModule], providers: [RegistryMetrics] })
export class RegistryMetricsModule {}
