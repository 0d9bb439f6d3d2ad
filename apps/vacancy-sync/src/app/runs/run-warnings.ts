import type { RunWarningDto } from '@connector/contracts';
import type { SyncRun } from './sync-run';

/**
 * What a finished run warns about: the source's warnings (unknown statuses, an empty listing...) and, for a
 * complete listing that read records but found none to publish, a plain-words note of that. One of each.
 */
export function runWarnings(run: Pick<SyncRun, 'mode' | 'read' | 'counts' | 'warnings'>): RunWarningDto[] {
  const warnings = [...run.warnings];
  if (run.mode === 'full' && run.read > 0 && run.counts.upserted + run.counts.unchanged === 0) {
    warnings.push({
      code: 'NOTHING_LIVE',
      message:
        `The ATS returned ${run.read} vacanc${run.read === 1 ? 'y' : 'ies'} but none of them is live by this ` +
        `connector's rules (an open status, on the careers site, within the advertising dates) or the ` +
        `mapping's publish lists left them all out, so nothing is published. Check the open statuses in ` +
        `the connector's options, the vacancies' advertising dates, and the publish lists in the Mapping tab.`,
    });
  }
  const seen = new Set<string>();
  return warnings.filter((w) => {
    const key = `${w.code}\n${w.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
