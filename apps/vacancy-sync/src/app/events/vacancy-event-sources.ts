import { AtsParts, AtsRegistry, type VacancyEventSource, type VacancyPartDeps } from '@connector/ats-core';

/**
 * The event source of an ATS type: each registered adapter's `vacancyEventSource`, built once with the
 * service's clients. An ATS without `vacancy-events` has none (its feed is `off`).
 */
export class VacancyEventSources {
  private readonly parts: AtsParts<VacancyEventSource>;

  constructor(
    private readonly registry: AtsRegistry,
    ...sources: VacancyEventSource[]
  ) {
    this.parts = new AtsParts('vacancy event source', registry, sources, 'vacancy-events');
  }

  /** The event sources the registered adapters have, each built with `deps`. */
  static of(registry: AtsRegistry, deps: VacancyPartDeps): VacancyEventSources {
    return new VacancyEventSources(
      registry,
      ...registry.all().flatMap((adapter) => adapter.vacancyEventSource?.(deps) ?? []),
    );
  }

  find(type: string): VacancyEventSource | undefined {
    return this.registry.has(type) ? this.parts.find(type) : undefined;
  }

  /** Registered ATSs that declare vacancy-events and whose adapter has no event source (a test keeps it empty). */
  missing(): string[] {
    return this.parts.missing();
  }
}
