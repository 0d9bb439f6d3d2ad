import { Module } from '@nestjs/common';
import { CandidateRefsModule } from '../candidate-refs/candidate-refs.module';
import { DocumentLinkRepository } from './document-link.repository';
import { DocumentSinks } from './document-sinks';
import { DocumentSyncService } from './document-sync.service';
import { DocumentUploadedHandler } from './document-uploaded.handler';

@Module({
  imports: [CandidateRefsModule],
  controllers: [DocumentUploadedHandler],
  providers: [DocumentSyncService, DocumentSinks, DocumentLinkRepository],
  exports: [DocumentLinkRepository],
})
export class DocumentsModule {}
