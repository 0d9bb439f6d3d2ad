import { Module } from '@nestjs/common';
import { ApiKeyGuard } from './api-key.guard';
import { ApiKeyService } from './api-key.service';
import { FailedKeyAttempts } from './failed-key-attempts';
import { CommonModule } from '../common/common.module';

/** The admin API's keys and their guard: every module with an admin API controller imports it. */
@Module({
  imports: [CommonModule],
  providers: [ApiKeyService, ApiKeyGuard, FailedKeyAttempts],
  exports: [ApiKeyService, ApiKeyGuard, FailedKeyAttempts],
})
export class AuthModule {}
