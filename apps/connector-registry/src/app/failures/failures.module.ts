import { Module } from '@nestjs/common';
import { DeadLetterRepository } from './dead-letter.repository';
import { ConnectorFailuresController, FailuresController } from './failures.controller';
import { FailuresService } from './failures.service';

@Module({
  controllers: [FailuresController, ConnectorFailuresController],
  providers: [DeadLetterRepository, FailuresService],
})
export class FailuresModule {}
