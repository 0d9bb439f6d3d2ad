import { atsAAdapter } from '@connector/ats-a';
import { atsBAdapter } from '@connector/ats-b';
import { AtsRegistry } from '@connector/ats-core';
import type { JobMapping } from '@connector/job-mapping';

/** Every ATS the services know: adding one is one folder under libs/ats and one line here. */
export const ATS_ADAPTERS = [atsAAdapter, atsBAdapter] as const;

/** The name of a registered ATS, derived from the list above: the only place ATS names are listed. */
export type AtsType = (typeof ATS_ADAPTERS)[number]['type'];

/** The registered names, typed (for code written against the ATSs this build has; others ask the registry). */
export const ATS_TYPES: readonly AtsType[] = ATS_ADAPTERS.map((adapter) => adapter.type);

/**
 * The product's registry: what each service's module provides as `AtsRegistry` (services take it injected),
 * frozen (a test that needs another ATS builds its own: `new AtsRegistry([...ATS_ADAPTERS, fakeAtsAdapter])`).
 */
export const atsRegistry = new AtsRegistry(ATS_ADAPTERS).freeze();

/** The registry as a Nest provider (the `AtsRegistry` token): services take it injected, their tests their own. */
export const atsRegistryProvider = { provide: AtsRegistry, useValue: atsRegistry };

/** The mapping a new connector of `type` starts with (a copy: the caller may change it), in `registry`. */
export function defaultJobMapping(type: string, registry: AtsRegistry = atsRegistry): JobMapping {
  return structuredClone(registry.get(type).mapping.defaults);
}

/**
 * The JSON Schemas of message classes (jsonSchemasOf) with every `atsType` naming the registered ATSs:
 * contracts carry the ATS as a string (they cannot see the adapters), the documents other teams read list them.
 */
export function withKnownAtsTypes<S extends object>(schemas: Record<string, S>): Record<string, S> {
  for (const schema of Object.values(schemas)) {
    const properties = (schema as { properties?: Record<string, unknown> }).properties;
    if (properties?.['atsType']) properties['atsType'] = { enum: [...ATS_TYPES] };
  }
  return schemas;
}
