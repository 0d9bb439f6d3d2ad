import { Module } from '@nestjs/common';
import { ApiKeyGuard } from './api-key.guard';
import { ApiKeyService } from './api-key.service';
import { FailedKeyAttempts } from './failed-key-attempts';

/** The admin API's keys and their guard: every module with an admin API controller imports it. */
@Module({
  providers: [ApiKeyService, ApiKeyGuard, FailedKeyAttempts],
  exports: [ApiKeyService, ApiKeyGuard, FailedKeyAttempts],
})
export class AuthModule {}
