/** Helpers for the tests of services that use @connector/messaging (as @connector/messaging/testing). */
export * from './vhost-broker-users';
