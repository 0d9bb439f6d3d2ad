import { Module } from '@nestjs/common';
import { CommonModule } from '../common/common.module';
import { CandidateRefRepository } from './candidate-ref.repository';
import { CandidateSyncedHandler } from './candidate-synced.handler';

@Module({
  imports: [CommonModule],
  controllers: [CandidateSyncedHandler],
  providers: [CandidateRefRepository],
  exports: [CandidateRefRepository],
})
export class CandidateRefsModule {}
