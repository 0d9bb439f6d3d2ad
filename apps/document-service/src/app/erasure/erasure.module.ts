import { Module } from '@nestjs/common';
import { CandidateRefsModule } from '../candidate-refs/candidate-refs.module';
import { DocumentsModule } from '../documents/documents.module';
import { CandidateErasedHandler } from './candidate-erased.handler';
import { DocumentErasureService } from './document-erasure.service';

@Module({
  imports: [CandidateRefsModule, DocumentsModule],
  controllers: [CandidateErasedHandler],
  providers: [DocumentErasureService],
})
export class ErasureModule {}
