import { Module } from '@nestjs/common';
import { ConnectorsModule } from '../connectors/connectors.module';
import { RunCompletedHandler } from './run-completed.handler';
import { RunProgressHandler } from './run-progress.handler';
import { RunsController } from './runs.controller';
import { RunsService } from './runs.service';
import { AuthModule } from '../auth/auth.module';
import { RepositoriesModule } from '../repositories/repositories.module';

@Module({
  imports: [ConnectorsModule, AuthModule, RepositoriesModule],
  controllers: [RunsController, RunProgressHandler, RunCompletedHandler],
  providers: [RunsService],
})
export class RunsModule {}
