import { Type } from 'class-transformer';
import { IsInt, Max, Min } from 'class-validator';
import { ServiceConfig } from '@connector/service-kit';

export const SERVICE_NAME = 'document-service';

/** document-service's environment, validated at boot. */
export class DocumentServiceConfig extends ServiceConfig {
  override PORT = 3004;
  /** Messages this process works on at once. */
  @Type(() => Number) @IsInt() @Min(1) @Max(500) PREFETCH = 10;
}
