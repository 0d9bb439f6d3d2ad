import { Module } from '@nestjs/common';
import { FailuresModule } from '../failures/failures.module';
import { CandidateErasedHandler } from './candidate-erased.handler';
import { ErasureCoordinator } from './erasure-coordinator.service';
import { ErasurePartCompletedHandler } from './erasure-part-completed.handler';

@Module({
  imports: [FailuresModule],
  controllers: [CandidateErasedHandler, ErasurePartCompletedHandler],
  providers: [ErasureCoordinator],
})
export class ErasureModule {}
