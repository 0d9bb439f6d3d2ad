import {
  getMetadataStorage,
  type ValidationArguments,
  ValidationTypes,
  type ValidatorConstraintInterface,
} from 'class-validator';
import type { ValidationMetadata } from 'class-validator/types/metadata/ValidationMetadata';

/**
 * class-validator's verdict on an object, without its error reports: true only when
 * `validateSync(object, { forbidUnknownValues: true })` would return no errors, and for the contracts' classes
 * whenever it would (valid-by-metadata.spec checks both ways). It runs the same decorators'
 * own checks (each constraint's `validate`), in the same order of decisions as class-validator's
 * ValidationExecutor (optional properties skipped, `each`, nested objects and arrays, an object of a class
 * without rules refused), from a plan made once per class instead of per object; the errors, the costly part,
 * are not built. A message that fails is validated again by class-validator for its readable reasons, so the
 * rules and their messages stay the decorators' alone (validateMessage).
 *
 * Rules are read as validateMessage asks for them (no groups, `always` off, so a rule's own groups do not
 * matter). What class-validator can do and the contracts do not use (async constraints, promise validation,
 * `@Allow` whitelisting) makes a class have no plan here: it is then never judged valid by this function, and
 * class-validator decides. Validation schemas (`registerSchema`) are not used by this code base.
 */
export function validByMetadata(object: object): boolean {
  const plan = planOf(object.constructor);
  if (!plan) return false;
  for (const property of plan) {
    const value = (object as Record<string, unknown>)[property.name];
    if (!property.conditions.every((condition) => condition(object, value))) continue;
    if (!property.checks.every((check) => passes(check, object, value))) return false;
    if (value !== undefined && property.nested && !nestedValid(value)) return false;
  }
  return true;
}

interface Check {
  metadata: ValidationMetadata;
  constraints: ValidatorConstraintInterface[];
}

interface PropertyPlan {
  name: string;
  /** IsOptional, ValidateIf: the property is checked only when all are true. */
  conditions: Array<(object: object, value: unknown) => boolean>;
  /** IsDefined first, then every other constraint (both run unless a condition skipped the property). */
  checks: Check[];
  /** ValidateNested. */
  nested: boolean;
}

/** Per class: its plan, or null when it has no rules or uses what is not covered (see validByMetadata). */
const plans = new Map<new () => object, PropertyPlan[] | null>();

/** Only classes are planned and kept: whatever else an object's `constructor` holds is never remembered. */
function planOf(target: unknown): PropertyPlan[] | null {
  if (typeof target !== 'function') return null;
  const type = target as new () => object;
  let plan = plans.get(type);
  if (plan === undefined) {
    plan = makePlan(type);
    plans.set(type, plan);
  }
  return plan;
}

const COVERED = new Set<string>([
  ValidationTypes.CUSTOM_VALIDATION,
  ValidationTypes.IS_DEFINED,
  ValidationTypes.CONDITIONAL_VALIDATION,
  ValidationTypes.NESTED_VALIDATION,
]);

function makePlan(target: new () => object): PropertyPlan[] | null {
  const storage = getMetadataStorage();
  // As ValidationExecutor asks for a top-level object: no schema, no groups, `always` and strictGroups off.
  const metadatas = storage.getTargetValidationMetadatas(target, '', false, false, undefined);
  if (metadatas.length === 0) return null; // forbidUnknownValues: an object without rules is refused
  const plan: PropertyPlan[] = [];
  for (const [name, own] of Object.entries(storage.groupByPropertyName(metadatas))) {
    if (own.some((metadata) => !COVERED.has(metadata.type))) return null;
    const checks = (type: string) =>
      own
        .filter((metadata) => metadata.type === type)
        .map((metadata) => ({ metadata, constraints: constraintsOf(metadata) }));
    const all = [...checks(ValidationTypes.IS_DEFINED), ...checks(ValidationTypes.CUSTOM_VALIDATION)];
    if (all.some((check) => check.constraints === null)) return null;
    plan.push({
      name,
      conditions: own
        .filter((metadata) => metadata.type === ValidationTypes.CONDITIONAL_VALIDATION)
        .map((metadata) => metadata.constraints[0] as (object: object, value: unknown) => boolean),
      checks: all as Check[],
      nested: own.some((metadata) => metadata.type === ValidationTypes.NESTED_VALIDATION),
    });
  }
  return plan;
}

/** The constraint's checks, or null for an async one (validateSync skips those; this does not guess). */
function constraintsOf(metadata: ValidationMetadata): ValidatorConstraintInterface[] | null {
  const found = getMetadataStorage().getTargetValidatorConstraints(metadata.constraintCls);
  if (found.some((constraint) => constraint.async)) return null;
  return found.map((constraint) => constraint.instance);
}

function passes({ metadata, constraints }: Check, object: object, value: unknown): boolean {
  if (metadata.validateIf && !metadata.validateIf(object, value)) return true;
  const args: ValidationArguments = {
    targetName: object.constructor?.name,
    property: metadata.propertyName,
    object,
    value,
    constraints: metadata.constraints,
  };
  const each = metadata.each && (Array.isArray(value) || value instanceof Set || value instanceof Map);
  const values = each ? arrayOf(value) : [value];
  return constraints.every((constraint) => values.every((item) => constraint.validate(item, args) === true));
}

/** ValidationExecutor.nestedValidations: arrays (and sets, maps) item by item, objects by their class. */
function nestedValid(value: unknown): boolean {
  if (value === undefined) return true;
  if (Array.isArray(value) || value instanceof Set || value instanceof Map) {
    return arrayOf(value).every(nestedValid);
  }
  if (value instanceof Object) return validByMetadata(value);
  return false;
}

function arrayOf(value: unknown[] | Set<unknown> | Map<unknown, unknown>): unknown[] {
  return value instanceof Map ? [...value.values()] : [...value];
}
