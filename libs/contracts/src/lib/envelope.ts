import { randomUUID } from 'node:crypto';
import { Type } from 'class-transformer';
import {
  IsInt,
  IsISO8601,
  IsNotEmpty,
  IsObject,
  IsOptional,
  IsString,
  IsUUID,
  MaxLength,
  Min,
} from 'class-validator';

/** The plain-JSON message of CONTRACT.md section 1: no framework envelope. */
export interface EventEnvelope<TType extends string = string, TData = unknown> {
  id: string;
  type: TType;
  version: number;
  occurredAt: string;
  accountId: string;
  correlationId?: string;
  data: TData;
}

/** Validation class for the envelope fields; `data` is validated by the DTO registered for `type`. */
export class EnvelopeDto {
  @IsUUID('all') id!: string;
  @IsString() @IsNotEmpty() @MaxLength(100) type!: string;
  @Type(() => Number) @IsInt() @Min(1) version!: number;
  @IsISO8601({ strict: true }) occurredAt!: string;
  @IsString() @IsNotEmpty() @MaxLength(100) accountId!: string;
  @IsOptional() @IsString() @MaxLength(200) correlationId?: string;
  @IsObject() data!: Record<string, unknown>;
}

export interface CreateEventOptions {
  correlationId?: string;
  id?: string;
  occurredAt?: Date;
  version?: number;
}

/** Builds an envelope with a fresh id; `correlationId` is copied from the event that caused this one. */
export function createEvent<TType extends string, TData>(
  type: TType,
  accountId: string,
  data: TData,
  options: CreateEventOptions = {},
): EventEnvelope<TType, TData> {
  return {
    id: options.id ?? randomUUID(),
    type,
    version: options.version ?? 1,
    occurredAt: (options.occurredAt ?? new Date()).toISOString(),
    accountId,
    ...(options.correlationId ? { correlationId: options.correlationId } : {}),
    data,
  };
}

/**
 * The largest message body a consumer reads (1 MiB; no message of the contract comes near it): a larger one
 * is dead-lettered as too large, unparsed, and reported. The broker refuses anything above 4 MiB outright
 * (deploy/rabbitmq/rabbitmq.conf), so what lies between still gets its `operation.failed`.
 */
export const MAX_MESSAGE_BYTES = 1024 * 1024;
