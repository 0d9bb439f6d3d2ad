import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { RUN_MODES, RUN_STATUSES } from '@connector/contracts';

/** OpenAPI description of a run (RunView); the controller answers RunView objects of this shape. */
export class RunWarningViewDto {
  @ApiProperty({
    example: 'UNKNOWN_STATUSES',
    description: 'stable code: UNKNOWN_STATUSES, EMPTY_LISTING, NOTHING_LIVE, RUN_FAILED…',
  })
  code!: string;
  @ApiProperty({ description: 'plain words for an admin: what the run asked, what it got, what to check' })
  message!: string;
}

export class RunCountsViewDto {
  @ApiProperty() fetched!: number;
  @ApiProperty() upserted!: number;
  @ApiProperty() unchanged!: number;
  @ApiProperty() closed!: number;
}

export class RunViewDto {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ format: 'uuid' }) connectorId!: string;
  @ApiProperty({ enum: RUN_STATUSES }) status!: string;
  @ApiProperty({ enum: RUN_MODES }) mode!: string;
  @ApiProperty({ type: RunCountsViewDto }) counts!: RunCountsViewDto;
  @ApiProperty() apiCalls!: number;
  @ApiProperty({ type: [String] }) errors!: string[];
  @ApiProperty({
    type: [RunWarningViewDto],
    description: 'a run that looks wrong says so, even when it succeeded; empty when there is nothing to say',
  })
  warnings!: RunWarningViewDto[];
  @ApiProperty({ format: 'date-time' }) queuedAt!: string;
  @ApiPropertyOptional({ format: 'date-time' }) startedAt?: string;
  @ApiPropertyOptional({ format: 'date-time' }) finishedAt?: string;
}

export class RunListViewDto {
  @ApiProperty({ type: [RunViewDto] }) runs!: RunViewDto[];
}
