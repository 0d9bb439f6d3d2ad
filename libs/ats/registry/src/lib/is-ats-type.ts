import { ValidateBy, type ValidationOptions } from 'class-validator';
import type { AtsRegistry } from '@connector/ats-core';
import { atsRegistry } from './ats-adapters';

const REGISTRY = Symbol('AtsRegistry');

/**
 * Has `@IsAtsType()` check `body` (an object about to be validated) against `registry`, the process's injected
 * one (connector-registry's validation pipe) or a test's own, rather than the product's `atsRegistry`.
 */
export function validatedWith<T extends object>(body: T, registry: AtsRegistry): T {
  // Not enumerable: the whitelist does not see it, nor does anything that copies the body.
  Object.defineProperty(body, REGISTRY, { value: registry, configurable: true });
  return body;
}

const registryOf = (body: object | undefined): AtsRegistry =>
  (body as { [REGISTRY]?: AtsRegistry } | undefined)?.[REGISTRY] ?? atsRegistry;

/**
 * class-validator: the value names a registered ATS, checked when validated against the registry the body was
 * given (`validatedWith`; a top-level field's body), else the product's.
 */
export function IsAtsType(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'isAtsType',
      validator: {
        validate: (value: unknown, args) => registryOf(args?.object).has(value),
        defaultMessage: (args) =>
          `${args?.property ?? 'type'} must be one of the following values: ${registryOf(args?.object).types().join(', ')}`,
      },
    },
    options,
  );
}
