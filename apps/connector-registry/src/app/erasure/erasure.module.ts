import { Module } from '@nestjs/common';
import { CommonModule } from '../common/common.module';
import { FailuresModule } from '../failures/failures.module';
import { CandidateErasedHandler } from './candidate-erased.handler';
import { ErasureCoordinator } from './erasure-coordinator.service';
import { ErasurePartCompletedHandler } from './erasure-part-completed.handler';

@Module({
  imports: [CommonModule, FailuresModule],
  controllers: [CandidateErasedHandler, ErasurePartCompletedHandler],
  providers: [ErasureCoordinator],
})
export class ErasureModule {}
