import type { AtsAccess } from '@connector/contracts';

/**
 * `access` as an ATS's own access type: its `type` is `atsType` and each of `fields` is a non-empty text.
 * Anything else is a fault of the caller (a connector asked for with another ATS's client), not of the data.
 */
export function accessOf<T extends AtsAccess>(
  access: AtsAccess,
  atsType: T['type'],
  fields: readonly (keyof T & string)[],
): T {
  const missing = fields.filter((field) => typeof access[field] !== 'string' || access[field] === '');
  if (access.type !== atsType || missing.length > 0) {
    throw new Error(
      `not an ${atsType} access (type ${access.type}${missing.length ? `, missing ${missing.join(', ')}` : ''})`,
    );
  }
  return access as T;
}
