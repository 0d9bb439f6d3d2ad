import { Module } from '@nestjs/common';
import { ConnectorsModule } from '../connectors/connectors.module';
import { RunMessagesController } from './run-messages.controller';
import { RunsController } from './runs.controller';
import { RunsService } from './runs.service';
import { AuthModule } from '../auth/auth.module';
import { RepositoriesModule } from '../repositories/repositories.module';

@Module({
  imports: [ConnectorsModule, AuthModule, RepositoriesModule],
  controllers: [RunsController, RunMessagesController],
  providers: [RunsService],
})
export class RunsModule {}
