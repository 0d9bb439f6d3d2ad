import { Module } from '@nestjs/common';
import { CandidateCreatedHandler } from './candidate-created.handler';
import { CandidateLinkRepository } from './candidate-link.repository';
import { CandidateSinks } from './candidate-sinks';
import { CandidateSyncService } from './candidate-sync.service';
import { CandidateUpdatedHandler } from './candidate-updated.handler';

@Module({
  controllers: [CandidateCreatedHandler, CandidateUpdatedHandler],
  providers: [CandidateSyncService, CandidateSinks, CandidateLinkRepository],
  exports: [CandidateLinkRepository],
})
export class CandidatesModule {}
