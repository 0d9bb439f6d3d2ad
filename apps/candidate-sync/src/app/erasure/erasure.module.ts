import { Module } from '@nestjs/common';
import { ApplicationsModule } from '../applications/applications.module';
import { CandidatesModule } from '../candidates/candidates.module';
import { CandidateErasedHandler } from './candidate-erased.handler';
import { CandidateErasureService } from './candidate-erasure.service';

@Module({
  imports: [CandidatesModule, ApplicationsModule],
  controllers: [CandidateErasedHandler],
  providers: [CandidateErasureService],
})
export class ErasureModule {}
