/**
 * One setting an adapter reads from the process's environment (its own prefix, e.g. `ATS_B_`): the
 * service's config takes it in as its own (`<NAME>_FILE` too), refuses production without a required one,
 * and hands the adapter's settings to its parts. Names and defaults are the adapter's.
 */
export interface AtsSetting {
  readonly name: string;
  readonly default: string;
  /** Production refuses to start on the default (a secret, or an address only the deployment knows). */
  readonly requiredInProduction?: boolean;
  /** An http(s) URL; `optional`: or empty. */
  readonly url?: true | 'optional';
}

/** The adapter's settings as the service read them, by name. */
export type AtsSettings = Readonly<Record<string, string>>;
