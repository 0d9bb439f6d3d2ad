import { Module } from '@nestjs/common';
import { ErasedCandidates } from '@connector/service-kit';
import { DeadLetterRepository } from './dead-letter.repository';
import { ConnectorFailuresController, FailuresController } from './failures.controller';
import { FailuresService } from './failures.service';
import { AuthModule } from '../auth/auth.module';
import { RepositoriesModule } from '../repositories/repositories.module';

@Module({
  imports: [AuthModule, RepositoriesModule],
  controllers: [FailuresController, ConnectorFailuresController],
  providers: [DeadLetterRepository, FailuresService, ErasedCandidates],
  exports: [DeadLetterRepository, ErasedCandidates],
})
export class FailuresModule {}
