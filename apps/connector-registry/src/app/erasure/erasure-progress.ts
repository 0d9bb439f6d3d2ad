import { type ErasedRecordsDto, ERASURE_PARTS, type ErasurePart } from '@connector/contracts';
import { NOTHING_ERASED } from '@connector/service-kit';

export type ErasureParts = Partial<Record<ErasurePart, ErasedRecordsDto>>;

/** What the whole erasure removed once every part reported; undefined while one is missing. */
export function completedErasure(parts: ErasureParts): ErasedRecordsDto | undefined {
  if (!ERASURE_PARTS.every((part) => parts[part])) return undefined;
  const total = { ...NOTHING_ERASED };
  for (const part of ERASURE_PARTS) {
    for (const kind of Object.keys(total) as Array<keyof ErasedRecordsDto>) {
      total[kind] += parts[part]?.[kind] ?? 0;
    }
  }
  return total;
}
