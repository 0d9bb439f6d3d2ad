/** Injection token of the validated ConnectorRegistryConfig. */
export const REGISTRY_CONFIG = Symbol('REGISTRY_CONFIG');
