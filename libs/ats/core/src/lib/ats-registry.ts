import { ATS_CAPABILITIES, type AtsAdapter, type AtsCapability } from './ats-adapter';

/** A connector names an ATS no adapter is registered for (bad input, or a service built without it). */
export class UnknownAtsTypeError extends Error {
  constructor(
    readonly atsType: string,
    known: readonly string[],
  ) {
    super(`unknown ATS type "${atsType}" (known: ${known.join(', ')})`);
    this.name = UnknownAtsTypeError.name;
  }
}

/** The registered ATS adapters, looked up by the connector's `type`. */
export class AtsRegistry {
  private readonly adapters = new Map<string, AtsAdapter>();
  private frozen = false;

  constructor(adapters: Iterable<AtsAdapter>) {
    for (const adapter of adapters) this.register(adapter);
  }

  /**
   * No adapter is added from now on: the product's registry (`atsRegistry`) is frozen once built, so a test
   * that adds one to it, for every other test of its process, fails; a test builds a registry of its own.
   */
  freeze(): this {
    this.frozen = true;
    return this;
  }

  /** Adds an adapter; a second one under a used name, an unknown capability, or a frozen registry, is refused. */
  register(adapter: AtsAdapter): void {
    if (this.frozen) {
      throw new Error(
        `this ATS registry is frozen: ${adapter.type} is not added (build your own: new AtsRegistry([...]))`,
      );
    }
    if (this.adapters.has(adapter.type)) throw new Error(`ATS type "${adapter.type}" is registered twice`);
    const unknown = adapter.capabilities.filter((c) => !(ATS_CAPABILITIES as readonly string[]).includes(c));
    if (unknown.length > 0) throw new Error(`${adapter.type}: unknown capabilities ${unknown.join(', ')}`);
    this.adapters.set(adapter.type, adapter);
  }

  /** The registered names, in registration order. */
  types(): string[] {
    return [...this.adapters.keys()];
  }

  all(): AtsAdapter[] {
    return [...this.adapters.values()];
  }

  has(type: unknown): type is string {
    return typeof type === 'string' && this.adapters.has(type);
  }

  /** The adapter of `type`; an unknown name throws `UnknownAtsTypeError`. */
  get(type: string): AtsAdapter {
    const adapter = this.adapters.get(type);
    if (!adapter) throw new UnknownAtsTypeError(type, this.types());
    return adapter;
  }

  supports(type: string, capability: AtsCapability): boolean {
    return this.adapters.get(type)?.capabilities.includes(capability) ?? false;
  }

  /** The names that declare `capability`. */
  typesWith(capability: AtsCapability): string[] {
    return this.all()
      .filter((adapter) => adapter.capabilities.includes(capability))
      .map((adapter) => adapter.type);
  }
}
