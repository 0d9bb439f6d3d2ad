import { AtsParts, AtsRegistry, type VacancyPartDeps, type VacancySource } from '@connector/ats-core';

/**
 * The vacancy source of an ATS type: each registered adapter's `vacancySource`, built once with the service's
 * clients, looked up by the connector's type (no case here). An ATS whose capabilities lack `vacancies` has none.
 */
export class VacancySources {
  private readonly parts: AtsParts<VacancySource>;

  constructor(registry: AtsRegistry, ...sources: VacancySource[]) {
    this.parts = new AtsParts('vacancy source', registry, sources, 'vacancies');
  }

  /** The sources the registered adapters have, each built with `deps`. */
  static of(registry: AtsRegistry, deps: VacancyPartDeps): VacancySources {
    return new VacancySources(
      registry,
      ...registry.all().flatMap((adapter) => adapter.vacancySource?.(deps) ?? []),
    );
  }

  for(type: string): VacancySource {
    return this.parts.get(type);
  }

  /** Registered ATSs that declare vacancies and whose adapter has no vacancy source (a test keeps it empty). */
  missing(): string[] {
    return this.parts.missing();
  }
}
