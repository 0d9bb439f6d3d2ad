import type { AtsAClient } from '../client/ats-a.client';
import { type AtsAStatusResolution, resolveAtsAStatuses } from '../client/ats-a-statuses';

/** The vacancy status list changes rarely: read it again after a day, or at once when a name is not in it. */
export const ATS_A_STATUS_LIST_TTL_MS = 24 * 60 * 60 * 1000;

/**
 * Per connector, ATS-A's vacancy statuses (`GET /api/options/dropdown/50`), so that status names in the
 * connector's options become the Ids the ATS filters by, at one call a day.
 */
export class AtsAOpenStatuses {
  private readonly lists = new Map<string, { fetchedAt: number; items: unknown[] }>();

  async resolve(
    connectorId: string,
    client: AtsAClient,
    names: readonly string[],
    now = Date.now(),
  ): Promise<AtsAStatusResolution> {
    const cached = this.lists.get(connectorId);
    if (cached && now - cached.fetchedAt < ATS_A_STATUS_LIST_TTL_MS) {
      const result = resolveAtsAStatuses(names, cached.items);
      if (result.missing.length === 0) return result;
      // A name not found may be a status added since: read the list again before calling it unknown.
    }
    const items = await client.getVacancyStatuses();
    this.lists.set(connectorId, { fetchedAt: now, items });
    return resolveAtsAStatuses(names, items);
  }
}
