/** @connector/tw-keys: the Keys vendor, a throwaway ATS the tests build from its own folder (docs/adding-an-ats.md). */
export { twKeysAdapter } from './lib/tw-keys.adapter';
