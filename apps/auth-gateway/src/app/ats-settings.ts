import { IsNotEmpty, IsString, Matches } from 'class-validator';
import type { AtsAdapter, AtsSetting, AtsSettings } from '@connector/ats-core';
import { RequiredInProduction, ServiceConfig } from '@connector/service-kit';

/**
 * ServiceConfig with the settings the adapters declare (`AtsAdapter.settings`, each under its adapter's own
 * prefix, e.g. ATS-B's OAuth client `ATS_B_*`) as variables of its own: read like any (`<NAME>_FILE` too),
 * checked at start-up, required in production when the adapter says so. The gateway's config names none.
 */
export function withAtsSettings(settings: readonly AtsSetting[]): new () => ServiceConfig {
  class WithAtsSettings extends ServiceConfig {
    constructor() {
      super();
      for (const { name, default: value } of settings) {
        Object.defineProperty(this, name, { value, writable: true, enumerable: true, configurable: true });
      }
    }
  }
  for (const setting of settings) {
    const decorate = (decorator: PropertyDecorator) => decorator(WithAtsSettings.prototype, setting.name);
    decorate(IsString());
    if (setting.requiredInProduction) {
      decorate(RequiredInProduction());
      decorate(IsNotEmpty());
    }
    if (setting.url) {
      const pattern = setting.url === 'optional' ? /^(https?:\/\/\S+)?$/ : /^https?:\/\/\S+$/;
      decorate(Matches(pattern, { message: `${setting.name} must be an http(s) URL` }));
    }
  }
  return WithAtsSettings;
}

/** One adapter's settings as the config read them. */
export function atsSettingsOf(config: ServiceConfig, adapter: Pick<AtsAdapter, 'settings'>): AtsSettings {
  const values = config as unknown as Record<string, unknown>;
  return Object.fromEntries(
    (adapter.settings ?? []).map(({ name, default: value }) => [name, String(values[name] ?? value)]),
  );
}
