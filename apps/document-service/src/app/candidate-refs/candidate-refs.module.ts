import { Module } from '@nestjs/common';
import { CandidateRefRepository } from './candidate-ref.repository';
import { CandidateSyncedHandler } from './candidate-synced.handler';

@Module({
  controllers: [CandidateSyncedHandler],
  providers: [CandidateRefRepository],
  exports: [CandidateRefRepository],
})
export class CandidateRefsModule {}
