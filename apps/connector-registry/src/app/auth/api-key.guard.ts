import { type CanActivate, type ExecutionContext, Injectable, Logger } from '@nestjs/common';
import type { Request } from 'express';
import { RegistryErrorCode, RegistryException } from '../common/registry.exception';
import type { AdminIdentity } from './api-keys';
import { ApiKeyService } from './api-key.service';
import { type FailedAttempt, FailedKeyAttempts } from './failed-key-attempts';

export type AuthenticatedRequest = Request & { admin?: AdminIdentity };

/**
 * Every `/api/v1` route: `Authorization: Bearer <key>` → `request.admin`; none or a wrong key → 401. Wrong keys
 * are counted per client address (FailedKeyAttempts, shared by replicas): past the limit, wrong keys from that
 * address get 429 until the window ends; a right key is always let in.
 */
@Injectable()
export class ApiKeyGuard implements CanActivate {
  private readonly logger = new Logger(ApiKeyGuard.name);

  constructor(
    private readonly keys: ApiKeyService,
    private readonly attempts: FailedKeyAttempts,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<AuthenticatedRequest>();
    const admin = this.keys.authenticate(request.headers.authorization);
    if (admin) {
      request.admin = admin;
      return true;
    }
    const unauthorized = new RegistryException(
      RegistryErrorCode.Unauthorized,
      'An admin API key is required: Authorization: Bearer <key>',
    );
    if (!request.headers.authorization) throw unauthorized;
    // The socket's address unless the app is told to trust a proxy's X-Forwarded-For ('trust proxy').
    const address = request.ip ?? request.socket?.remoteAddress ?? 'unknown';
    let attempt: FailedAttempt;
    try {
      attempt = await this.attempts.recordFailure(address);
    } catch (error) {
      this.logger.error(`wrong API key not counted: ${(error as Error).message}`);
      throw unauthorized;
    }
    if (attempt.failures <= this.attempts.policy.maxFailures) throw unauthorized;
    const retryAfterSeconds = Math.max(1, Math.ceil(attempt.remainingMs / 1000));
    request.res?.setHeader('Retry-After', String(retryAfterSeconds));
    throw new RegistryException(
      RegistryErrorCode.TooManyRequests,
      `Too many wrong API keys from this address: try again in ${retryAfterSeconds} s`,
      { retryAfterSeconds },
    );
  }
}
