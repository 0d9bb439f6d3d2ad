import { type CanActivate, type ExecutionContext, Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { RegistryErrorCode, RegistryException } from '../common/registry.exception';
import type { AdminIdentity } from './api-keys';
import { ApiKeyService } from './api-key.service';

export type AuthenticatedRequest = Request & { admin?: AdminIdentity };

/**
 * Every `/api/v1` route: `Authorization: Bearer <key>` → `request.admin`; none or a wrong key → 401; too
 * many wrong keys from one client address → 429 for the rest of the window, whatever the key.
 */
@Injectable()
export class ApiKeyGuard implements CanActivate {
  constructor(private readonly keys: ApiKeyService) {}

  canActivate(context: ExecutionContext): boolean {
    const request = context.switchToHttp().getRequest<AuthenticatedRequest>();
    // The socket's address unless the app is told to trust a proxy's X-Forwarded-For ('trust proxy').
    const address = request.ip ?? request.socket?.remoteAddress ?? 'unknown';
    const blockedMs = this.keys.failures.blockedForMs(address);
    if (blockedMs > 0) {
      const retryAfterSeconds = Math.ceil(blockedMs / 1000);
      request.res?.setHeader('Retry-After', String(retryAfterSeconds));
      throw new RegistryException(
        RegistryErrorCode.TooManyRequests,
        `Too many wrong API keys from this address: try again in ${retryAfterSeconds} s`,
        { retryAfterSeconds },
      );
    }
    const admin = this.keys.authenticate(request.headers.authorization);
    if (!admin) {
      if (request.headers.authorization) this.keys.failures.recordFailure(address);
      throw new RegistryException(
        RegistryErrorCode.Unauthorized,
        'An admin API key is required: Authorization: Bearer <key>',
      );
    }
    request.admin = admin;
    return true;
  }
}
