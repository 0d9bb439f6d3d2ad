import { Type } from 'class-transformer';
import { IsInt, Max, Min } from 'class-validator';
import { ServiceConfig } from '@connector/service-kit';

export const SERVICE_NAME = 'auth-gateway';

/** auth-gateway's environment, validated at boot. */
export class AuthGatewayConfig extends ServiceConfig {
  override PORT = 3001;
  /** Messages this process works on at once. */
  @Type(() => Number) @IsInt() @Min(1) @Max(500) PREFETCH = 10;
}
