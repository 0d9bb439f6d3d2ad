import { readInt, readObject, readText } from '@connector/ats-http';

/** A pick-list value read tolerantly: `{Id, Description}` with the id as a number or numeric text. */
export interface AtsAPickListValue {
  id?: number;
  description?: string;
}

export function readAtsAPickList(value: unknown): AtsAPickListValue {
  const item = readObject(value);
  if (!item) {
    // Not the documented shape: a bare id is still an id.
    const id = readInt(value);
    return id === undefined ? {} : { id };
  }
  const id = readInt(item['Id']);
  const description = readText(item['Description']);
  return { ...(id !== undefined ? { id } : {}), ...(description !== undefined ? { description } : {}) };
}

/** Configured status names turned into the ATS's ids, with what could not be found. */
export interface AtsAStatusResolution {
  /** Ids of the configured names the ATS offers, in the order configured, without repeats. */
  ids: number[];
  /** Configured names the ATS does not offer. */
  missing: string[];
  /** Every label the ATS offers, as it writes them. */
  offered: string[];
}

/**
 * Status names (what a recruiter knows) → the ATS's pick-list ids (what its filters compare). Labels compare
 * without case and surrounding spaces, as the ATS compares text; a label listed twice gives both ids.
 */
export function resolveAtsAStatuses(
  names: readonly string[],
  dropdown: readonly unknown[],
): AtsAStatusResolution {
  const items = dropdown
    .map(readAtsAPickList)
    .filter((i) => i.id !== undefined && i.description !== undefined);
  const ids: number[] = [];
  const missing: string[] = [];
  for (const name of names) {
    const wanted = name.trim().toLowerCase();
    const found = items.filter((i) => i.description?.toLowerCase() === wanted);
    if (found.length === 0) missing.push(name);
    for (const item of found) if (!ids.includes(item.id as number)) ids.push(item.id as number);
  }
  return { ids, missing, offered: items.map((i) => i.description as string) };
}

/** The admin's words for configured statuses the ATS does not offer: which ones, and which it does offer. */
export function describeMissingAtsAStatuses(missing: readonly string[], offered: readonly string[]): string {
  const quoted = (list: readonly string[]) => list.map((s) => `“${s}”`).join(', ');
  const these = missing.length === 1 ? 'status' : 'statuses';
  return (
    `ATS-A does not offer the vacancy ${these} ${quoted(missing)} named in the connector's open statuses. ` +
    (offered.length > 0
      ? `It offers: ${quoted(offered)}. Change the open statuses to names from that list.`
      : 'It lists no vacancy statuses at all; check the API key may read options (options.read).')
  );
}
