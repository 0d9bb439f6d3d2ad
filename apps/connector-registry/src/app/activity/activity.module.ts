import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { RepositoriesModule } from '../repositories/repositories.module';
import { ActivityController } from './activity.controller';
import { ActivityRepository } from './activity.repository';
import { ActivityService } from './activity.service';
import { ApplicationSyncedHandler } from './application-synced.handler';
import { CandidateSyncedHandler } from './candidate-synced.handler';
import { DocumentSyncedHandler } from './document-synced.handler';

/** A connector's work per day: counted from the workers' *.synced events, read by the admin page. */
@Module({
  imports: [AuthModule, RepositoriesModule],
  controllers: [ActivityController, CandidateSyncedHandler, ApplicationSyncedHandler, DocumentSyncedHandler],
  providers: [ActivityRepository, ActivityService],
})
export class ActivityModule {}
