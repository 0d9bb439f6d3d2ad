import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsIn, IsInt, IsOptional, Max, Min } from 'class-validator';
import { RUN_MODES, type RunMode } from '@connector/contracts';

export class StartRunDto {
  @ApiPropertyOptional({ enum: RUN_MODES, default: 'incremental' })
  @IsOptional()
  @IsIn(RUN_MODES)
  mode?: RunMode;
}

export class ListRunsQueryDto {
  @ApiPropertyOptional({ default: 20, minimum: 1, maximum: 100 })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(100)
  limit?: number;
}
