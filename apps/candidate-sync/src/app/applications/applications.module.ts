import { Module } from '@nestjs/common';
import { CandidatesModule } from '../candidates/candidates.module';
import { ApplicationLinkRepository } from './application-link.repository';
import { ApplicationSinks } from './application-sinks';
import { ApplicationSubmittedHandler } from './application-submitted.handler';
import { ApplicationSyncService } from './application-sync.service';
import { ApplicationUpdatedHandler } from './application-updated.handler';
import { CommonModule } from '../common/common.module';

@Module({
  imports: [CommonModule, CandidatesModule],
  controllers: [ApplicationSubmittedHandler, ApplicationUpdatedHandler],
  providers: [ApplicationSyncService, ApplicationSinks, ApplicationLinkRepository],
  exports: [ApplicationLinkRepository],
})
export class ApplicationsModule {}
