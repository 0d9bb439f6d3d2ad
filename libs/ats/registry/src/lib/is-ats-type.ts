import { ValidateBy, type ValidationOptions } from 'class-validator';
import { atsRegistry } from './ats-adapters';

/** class-validator: the value names a registered ATS (checked against the registry when validated). */
export function IsAtsType(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'isAtsType',
      validator: {
        validate: (value: unknown) => atsRegistry.has(value),
        defaultMessage: (args) =>
          `${args?.property ?? 'type'} must be one of the following values: ${atsRegistry.types().join(', ')}`,
      },
    },
    options,
  );
}
