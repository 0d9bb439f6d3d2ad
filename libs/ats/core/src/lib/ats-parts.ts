import type { AtsCapability } from './ats-adapter';
import type { AtsPart } from './ats-part';
import type { AtsRegistry } from './ats-registry';

/** A registered ATS declares what a part does, but the service was built without that part. */
export class MissingAtsPartError extends Error {
  constructor(
    readonly atsType: string,
    partName: string,
  ) {
    super(`${atsType} has no ${partName} (its capabilities declare one)`);
    this.name = MissingAtsPartError.name;
  }
}

/**
 * One service's parts, looked up by the connector's ATS type instead of a switch on its name. `capability`:
 * the capability the parts serve; an ATS that declares it must have a part (`missing()`, kept empty by each
 * service's test), one that does not is unsupported (`find` answers undefined). Without a capability every
 * registered ATS needs a part (a connector kind, a credential issuer).
 */
export class AtsParts<Part extends AtsPart> {
  private readonly parts = new Map<string, Part>();

  constructor(
    /** What a part is called in errors (`vacancy source`). */
    readonly partName: string,
    private readonly registry: AtsRegistry,
    parts: Iterable<Part>,
    readonly capability?: AtsCapability,
  ) {
    for (const part of parts) {
      if (this.parts.has(part.atsType)) throw new Error(`two ${partName}s for ${part.atsType}`);
      this.parts.set(part.atsType, part);
    }
  }

  /** Whether an ATS of `type` needs a part here (its capabilities declare the capability). */
  needs(type: string): boolean {
    return this.capability === undefined
      ? this.registry.has(type)
      : this.registry.supports(type, this.capability);
  }

  /** Registered ATSs that need a part and have none: a service's test fails on any. */
  missing(): string[] {
    return this.registry.types().filter((type) => this.needs(type) && !this.parts.has(type));
  }

  /**
   * The part of `type`; undefined when no registered ATS of that name declares the capability (unsupported).
   * Throws `MissingAtsPartError` when it declares it and the part is not built in.
   */
  find(type: string): Part | undefined {
    if (!this.needs(type)) return undefined;
    const part = this.parts.get(type);
    if (!part) throw new MissingAtsPartError(type, this.partName);
    return part;
  }

  /** The part of `type`, which the caller needs: `UnknownAtsTypeError` for an unregistered name, unsupported throws too. */
  get(type: string): Part {
    this.registry.get(type);
    const part = this.find(type);
    if (!part) throw new Error(`${type} does not support ${this.capability ?? 'this'}: no ${this.partName}`);
    return part;
  }
}
