/** @connector/tw-login: the Login vendor, a throwaway ATS the tests build from its own folder (docs/adding-an-ats.md). */
export { twLoginAdapter } from './lib/tw-login.adapter';
