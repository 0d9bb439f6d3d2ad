import { type CanActivate, type ExecutionContext, Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { RegistryErrorCode, RegistryException } from '../common/registry.exception';
import type { AdminIdentity } from './api-keys';
import { ApiKeyService } from './api-key.service';

export type AuthenticatedRequest = Request & { admin?: AdminIdentity };

/** Every `/api/v1` route: `Authorization: Bearer <key>` → `request.admin`; none or a wrong key → 401. */
@Injectable()
export class ApiKeyGuard implements CanActivate {
  constructor(private readonly keys: ApiKeyService) {}

  canActivate(context: ExecutionContext): boolean {
    const request = context.switchToHttp().getRequest<AuthenticatedRequest>();
    const admin = this.keys.authenticate(request.headers.authorization);
    if (!admin) {
      throw new RegistryException(
        RegistryErrorCode.Unauthorized,
        'An admin API key is required: Authorization: Bearer <key>',
      );
    }
    request.admin = admin;
    return true;
  }
}
