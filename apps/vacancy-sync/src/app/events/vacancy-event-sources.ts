import {
  type AtsAdapter,
  AtsParts,
  type VacancyEventSource,
  type VacancyPartDeps,
} from '@connector/ats-core';
import { atsRegistry } from '@connector/ats-registry';

/**
 * The event source of an ATS type: each registered adapter's `vacancyEventSource`, built once with the
 * service's clients. An ATS without `vacancy-events` has none (its feed is `off`).
 */
export class VacancyEventSources {
  private readonly parts: AtsParts<VacancyEventSource>;

  constructor(...sources: VacancyEventSource[]) {
    this.parts = new AtsParts('vacancy event source', atsRegistry, sources, 'vacancy-events');
  }

  /** The event sources the registered adapters have, each built with `deps`. */
  static of(adapters: readonly AtsAdapter[], deps: VacancyPartDeps): VacancyEventSources {
    return new VacancyEventSources(
      ...adapters.flatMap((adapter) => adapter.vacancyEventSource?.(deps) ?? []),
    );
  }

  find(type: string): VacancyEventSource | undefined {
    return atsRegistry.has(type) ? this.parts.find(type) : undefined;
  }

  /** Registered ATSs that declare vacancy-events and whose adapter has no event source (a test keeps it empty). */
  missing(): string[] {
    return this.parts.missing();
  }
}
