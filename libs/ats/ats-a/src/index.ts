/** @connector/ats-a: the ATS-A adapter (docs/adding-an-ats.md, /work/shared/ats-a.md). */
export { type AtsAAccess, atsAAccessOf } from './lib/ats-a-access';
export { atsAAdapter } from './lib/ats-a.adapter';
export { ATS_A_VACANCY_BLOCKS, ATS_A_SOURCE_PATHS } from './lib/ats-a-vacancy-fields';
