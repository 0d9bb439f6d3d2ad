/** @connector/ats-b: the ATS-B adapter (docs/adding-an-ats.md, /work/shared/ats-b.md). */
export { type AtsBAccess, atsBAccessOf } from './lib/ats-b-access';
export { atsBAdapter } from './lib/ats-b.adapter';
export { ATS_B_SOURCE_PATHS } from './lib/ats-b-vacancy-fields';
export { AtsBOptionsDto } from './lib/ats-b-connector.dto';
