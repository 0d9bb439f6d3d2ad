import { Module } from '@nestjs/common';
import { CommonModule } from '../common/common.module';
import { ApplicationsModule } from '../applications/applications.module';
import { CandidatesModule } from '../candidates/candidates.module';
import { CandidateErasedHandler } from './candidate-erased.handler';
import { CandidateErasureService } from './candidate-erasure.service';

@Module({
  imports: [CommonModule, CandidatesModule, ApplicationsModule],
  controllers: [CandidateErasedHandler],
  providers: [CandidateErasureService],
})
export class ErasureModule {}
