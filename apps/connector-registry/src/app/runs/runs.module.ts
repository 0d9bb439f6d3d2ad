import { Module } from '@nestjs/common';
import { ConnectorsModule } from '../connectors/connectors.module';
import { RunMessagesController } from './run-messages.controller';
import { RunsController } from './runs.controller';
import { RunsService } from './runs.service';

@Module({
  imports: [ConnectorsModule],
  controllers: [RunsController, RunMessagesController],
  providers: [RunsService],
})
export class RunsModule {}
