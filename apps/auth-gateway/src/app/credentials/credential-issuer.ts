/**
 * The issuers themselves are each adapter's part (`credentialIssuer`, libs/ats/<name>/src/lib/credentials),
 * their types in `@connector/ats-core` (credential-issuer.ts).
 */

/** Every credential issuer auth-gateway is built with, one per registered ATS (credentials.module.ts). */
export const CREDENTIAL_ISSUERS = Symbol('CREDENTIAL_ISSUERS');

/** The daily quota the gateway's token requests take from (the workers' table, one row per account and system). */
export const TOKEN_QUOTA = Symbol('TOKEN_QUOTA');

/** The rate limit of connection tests per account (Postgres buckets, so it holds across gateway processes). */
export const CONNECTION_TEST_LIMITER = Symbol('CONNECTION_TEST_LIMITER');
