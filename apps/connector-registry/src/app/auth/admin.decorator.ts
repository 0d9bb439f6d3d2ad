import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { AdminIdentity } from './api-keys';
import type { AuthenticatedRequest } from './api-key.guard';

/** The identity ApiKeyGuard put on the request: `@Admin() admin: AdminIdentity`. */
export const Admin = createParamDecorator((_data: unknown, context: ExecutionContext): AdminIdentity => {
  const admin = context.switchToHttp().getRequest<AuthenticatedRequest>().admin;
  if (!admin) throw new Error('@Admin() used on a route without ApiKeyGuard');
  return admin;
});
