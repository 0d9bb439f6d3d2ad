import { type ArgumentMetadata, ValidationPipe, type ValidationError } from '@nestjs/common';
import { type ClassConstructor, plainToInstance } from 'class-transformer';
import { validateSync, type ValidatorOptions } from 'class-validator';
import type { AtsRegistry } from '@connector/ats-core';
import { validatedWith } from '@connector/ats-registry';
import { RegistryErrorCode, RegistryException } from './registry.exception';

/** One problem of a request body: where (`config.baseUrl`) and what. */
export interface FieldProblem {
  field: string;
  problems: string[];
}

function describeValidationErrors(errors: ValidationError[], prefix = ''): FieldProblem[] {
  return errors.flatMap((error) => {
    const field = prefix ? `${prefix}.${error.property}` : error.property;
    // A null where a value must be (OptionalNotNull): that alone, not also every check of the value's kind.
    const own = error.constraints?.isDefined
      ? [error.constraints.isDefined]
      : Object.values(error.constraints ?? {});
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

/**
 * Where a JSON value holds U+0000 in a string or a key (`fields.location.constant`), at most `max` places.
 * Postgres cannot store that character in text or jsonb, so no body may carry one.
 */
export function nulCharacterPaths(value: unknown, max = 10, path = ''): string[] {
  const found: string[] = [];
  const visit = (node: unknown, at: string): void => {
    if (found.length >= max) return;
    if (typeof node === 'string') {
      if (node.includes('\u0000')) found.push(at || '(body)');
    } else if (Array.isArray(node)) {
      node.forEach((item, index) => visit(item, `${at}[${index}]`));
    } else if (typeof node === 'object' && node !== null) {
      for (const [key, item] of Object.entries(node)) {
        const name = key.replaceAll('\u0000', '\\u0000');
        const child = at ? `${at}.${name}` : name;
        if (key.includes('\u0000') && found.length < max) found.push(child);
        visit(item, child);
      }
    }
  };
  visit(value, path);
  return found;
}

/**
 * The global pipe: unknown fields are refused, bodies are turned into their DTO classes; an ATS type is checked
 * against the process's registry (`@IsAtsType()`).
 */
class RegistryValidationPipe extends ValidationPipe {
  constructor(
    private readonly registry: AtsRegistry,
    options: ConstructorParameters<typeof ValidationPipe>[0],
  ) {
    super(options);
  }

  protected override validate(object: object, validatorOptions?: ValidatorOptions) {
    return super.validate(validatedWith(object, this.registry), validatorOptions);
  }

  override async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    // Every body, whatever its class (also those checked later as a whole, like a job mapping).
    if (metadata.type === 'body') {
      const paths = nulCharacterPaths(value);
      if (paths.length > 0) {
        throw validationFailed(
          paths.map((field) => ({
            field,
            problems: [`${field} must not contain the character U+0000 (NUL)`],
          })),
        );
      }
    }
    return super.transform(value, metadata);
  }
}

export function createValidationPipe(registry: AtsRegistry): ValidationPipe {
  return new RegistryValidationPipe(registry, {
    ...OPTIONS,
    transform: true,
    exceptionFactory: (errors) => validationFailed(describeValidationErrors(errors)),
  });
}

/**
 * Validates a part of a body whose class depends on another field (a connector's `config` by its `type`),
 * with the same rules as the global pipe; `prefix` names where it sits in the body. An ATS type in it is
 * checked against `registry` (a test's own), else the product's.
 */
export function validateAs<T extends object>(
  cls: ClassConstructor<T>,
  plain: unknown,
  prefix: string,
  registry?: AtsRegistry,
): T {
  if (typeof plain !== 'object' || plain === null || Array.isArray(plain)) {
    throw validationFailed([{ field: prefix, problems: [`${prefix} must be an object`] }]);
  }
  const instance = plainToInstance(cls, plain);
  // An empty object is a valid instance of a class with no checks (an ATS whose set-up form asks nothing);
  // anything in it is still refused, as a value of no known shape.
  const empty = Object.keys(plain).length === 0;
  const errors = validateSync(
    registry ? validatedWith(instance, registry) : instance,
    empty ? { ...OPTIONS, forbidUnknownValues: false } : OPTIONS,
  );
  if (errors.length > 0) throw validationFailed(describeValidationErrors(errors, prefix));
  return instance;
}

// Shared with the adapters' connector kinds, whose options classes use them.
export { definedOnly, OptionalNotNull } from '@connector/ats-core';
