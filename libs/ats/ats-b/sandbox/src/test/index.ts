/** Helpers for tests that use the ATS-B sandbox (as @connector/ats-b-sandbox/testing). */
export * from './login-form.driver';
