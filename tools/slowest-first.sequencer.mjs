// The integration tier's order (jest.integration.config.ts): the suites that take minutes first, then the other
// end-to-end suites (each starts services as processes), then the rest, each group largest file first. Two
// workers share the files: a long suite started last would leave one of them running it alone. Jest's own
// order needs durations from an earlier run on this checkout, which a fresh one (CI) does not have.
import { statSync } from 'node:fs';
import { basename } from 'node:path';

/** Measured at minutes each (docs/testing.md): waiting out quota windows, a build, a fleet's schedule. */
const TAKE_MINUTES = new Set([
  'ats-quota.e2e-spec.ts',
  'ats-pace.e2e-spec.ts',
  'chaos.e2e-spec.ts',
  'production-build.e2e-spec.ts',
  'vacancy-fleet.e2e-spec.ts',
]);

const group = (path) => (TAKE_MINUTES.has(basename(path)) ? 0 : path.endsWith('.e2e-spec.ts') ? 1 : 2);

export default class SlowestFirstSequencer {
  sort(tests) {
    const size = new Map(tests.map((test) => [test.path, statSync(test.path).size]));
    return [...tests].sort((a, b) => group(a.path) - group(b.path) || size.get(b.path) - size.get(a.path));
  }

  // Jest asks every sequencer to keep the run's results; this order needs none of them.
  cacheResults() {}
}
