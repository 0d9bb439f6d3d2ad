import { Module } from '@nestjs/common';
import { DeadLetterRepository } from './dead-letter.repository';
import { ConnectorFailuresController, FailuresController } from './failures.controller';
import { FailuresService } from './failures.service';
import { AuthModule } from '../auth/auth.module';
import { RepositoriesModule } from '../repositories/repositories.module';

@Module({
  imports: [AuthModule, RepositoriesModule],
  controllers: [FailuresController, ConnectorFailuresController],
  providers: [DeadLetterRepository, FailuresService],
})
export class FailuresModule {}
