import { Module } from '@nestjs/common';
import { CandidatesModule } from '../candidates/candidates.module';
import { ApplicationLinkRepository } from './application-link.repository';
import { ApplicationSinks } from './application-sinks';
import { ApplicationSubmittedHandler } from './application-submitted.handler';
import { ApplicationSyncService } from './application-sync.service';
import { ApplicationUpdatedHandler } from './application-updated.handler';

@Module({
  imports: [CandidatesModule],
  controllers: [ApplicationSubmittedHandler, ApplicationUpdatedHandler],
  providers: [ApplicationSyncService, ApplicationSinks, ApplicationLinkRepository],
  exports: [ApplicationLinkRepository],
})
export class ApplicationsModule {}
