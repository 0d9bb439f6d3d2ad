import { Module } from '@nestjs/common';
import { ConnectorRepository } from './connector.repository';
import { JobMappingRepository } from './job-mapping.repository';
import { RunRepository } from './run.repository';

/** Every database access of the registry, behind injectable repositories (mocked in unit tests). */
@Module({
  providers: [ConnectorRepository, JobMappingRepository, RunRepository],
  exports: [ConnectorRepository, JobMappingRepository, RunRepository],
})
export class RepositoriesModule {}
