import { plainToInstance } from 'class-transformer';
import { validateSync, type ValidationError } from 'class-validator';
import 'reflect-metadata';
import { EnvelopeDto, type EventEnvelope } from './envelope';
import {
  isMessageType,
  MESSAGE_DATA,
  type MessageData,
  type MessageType,
  SUPPORTED_VERSION,
} from './message-types';
import { validByMetadata } from './valid-by-metadata';

export type ValidationResult<T extends MessageType = MessageType> =
  | { ok: true; message: EventEnvelope<T, MessageData<T>> }
  | { ok: false; errors: string[]; message?: unknown };

/**
 * The one check every consumer runs on a message body: JSON, envelope, known type and version, and the
 * `data` of that type. Errors are readable paths ("data.email: email must be an email").
 */
export function validateMessage(body: Buffer | string, routingKey?: string): ValidationResult {
  let parsed: unknown;
  try {
    parsed = JSON.parse(typeof body === 'string' ? body : body.toString('utf8'));
  } catch (error) {
    return { ok: false, errors: [`body is not JSON: ${(error as Error).message}`] };
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    return { ok: false, errors: ['body must be a JSON object'] };
  }
  // The validators recurse: a hostile depth would overflow the stack instead of failing validation.
  if (nestedDeeperThan(parsed, MAX_DEPTH)) {
    return { ok: false, errors: [`body is nested deeper than ${MAX_DEPTH} levels`], message: parsed };
  }
  try {
    return validateObject(parsed, routingKey);
  } catch (error) {
    // A validator that throws on some input is a bug of ours; the message still fails with its reason.
    return {
      ok: false,
      errors: [`body could not be validated: ${(error as Error).message}`],
      message: parsed,
    };
  }
}

/** No message of the contract comes near this (an application's answers are 4 levels down). */
const MAX_DEPTH = 32;

function nestedDeeperThan(value: object, limit: number): boolean {
  const stack: Array<{ value: unknown; depth: number }> = [{ value, depth: 1 }];
  for (let item = stack.pop(); item; item = stack.pop()) {
    const { value: next, depth } = item;
    if (typeof next !== 'object' || next === null) continue;
    if (depth > limit) return true;
    for (const child of Object.values(next)) stack.push({ value: child, depth: depth + 1 });
  }
  return false;
}

function validateObject(parsed: object, routingKey: string | undefined): ValidationResult {
  // `data` stays out of the envelope's copy: checked there as an object, then copied once, by its own class.
  const { data, ...fields } = parsed as { data?: unknown };
  const envelope = Object.assign(plainToInstance(EnvelopeDto, fields), { data });
  const errors = validationErrors(envelope);
  if (errors.length > 0) return { ok: false, errors, message: parsed };

  if (routingKey !== undefined && routingKey !== envelope.type) {
    errors.push(`type "${envelope.type}" does not match routing key "${routingKey}"`);
  }
  if (!isMessageType(envelope.type)) {
    return { ok: false, errors: [...errors, `type "${envelope.type}" is unknown`], message: parsed };
  }
  if (envelope.version > SUPPORTED_VERSION) {
    errors.push(
      `version ${envelope.version} of ${envelope.type} is not supported (max ${SUPPORTED_VERSION})`,
    );
  }
  const typed = plainToInstance(MESSAGE_DATA[envelope.type] as new () => object, data);
  errors.push(...validationErrors(typed, 'data'));
  if (errors.length > 0) return { ok: false, errors, message: parsed };

  const message = parsed as EventEnvelope<MessageType, MessageData<MessageType>>;
  return { ok: true, message: { ...message, data: typed as MessageData<MessageType> } };
}

/**
 * class-validator's errors as paths; none without asking it when validByMetadata finds the object valid (the
 * same verdict, a fraction of the CPU: most messages are valid, and their errors are never read).
 */
function validationErrors(object: object, prefix = ''): string[] {
  if (validByMetadata(object)) return [];
  return flatten(validateSync(object, { forbidUnknownValues: true }), prefix);
}

function flatten(errors: ValidationError[], prefix = ''): string[] {
  return errors.flatMap((error) => {
    const path = prefix ? `${prefix}.${error.property}` : error.property;
    const own = Object.values(error.constraints ?? {}).map((text) => `${path}: ${text}`);
    return [...own, ...flatten(error.children ?? [], path)];
  });
}
