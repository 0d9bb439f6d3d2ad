import { ValidationPipe, type ValidationError } from '@nestjs/common';
import { type ClassConstructor, plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import { RegistryErrorCode, RegistryException } from './registry.exception';

/** One problem of a request body: where (`config.baseUrl`) and what. */
export interface FieldProblem {
  field: string;
  problems: string[];
}

function describeValidationErrors(errors: ValidationError[], prefix = ''): FieldProblem[] {
  return errors.flatMap((error) => {
    const field = prefix ? `${prefix}.${error.property}` : error.property;
    const own = Object.values(error.constraints ?? {});
    const children = describeValidationErrors(error.children ?? [], field);
    return own.length > 0 ? [{ field, problems: own }, ...children] : children;
  });
}

function validationFailed(problems: FieldProblem[]): RegistryException {
  return new RegistryException(
    RegistryErrorCode.ValidationFailed,
    `Invalid request: ${problems.map((p) => p.field).join(', ')}`,
    { fields: problems },
  );
}

const OPTIONS = { whitelist: true, forbidNonWhitelisted: true, forbidUnknownValues: true } as const;

/** The global pipe: unknown fields are refused, bodies are turned into their DTO classes. */
export function createValidationPipe(): ValidationPipe {
  return new ValidationPipe({
    ...OPTIONS,
    transform: true,
    exceptionFactory: (errors) => validationFailed(describeValidationErrors(errors)),
  });
}

/**
 * Validates a part of a body whose class depends on another field (a connector's `config` by its `type`),
 * with the same rules as the global pipe; `prefix` names where it sits in the body.
 */
export function validateAs<T extends object>(cls: ClassConstructor<T>, plain: unknown, prefix: string): T {
  if (typeof plain !== 'object' || plain === null || Array.isArray(plain)) {
    throw validationFailed([{ field: prefix, problems: [`${prefix} must be an object`] }]);
  }
  const instance = plainToInstance(cls, plain);
  const errors = validateSync(instance, OPTIONS);
  if (errors.length > 0) throw validationFailed(describeValidationErrors(errors, prefix));
  return instance;
}

/** A DTO's fields that were given (class fields the body left out exist as `undefined`). */
export function definedOnly(dto: object): Record<string, unknown> {
  return Object.fromEntries(Object.entries(dto).filter(([, value]) => value !== undefined));
}
