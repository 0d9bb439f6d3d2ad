import { AtsError } from '@connector/ats-clients';
import { type AppliedMark, orderOf } from './event-order';

/** A record's link row: claimed before its ATS create (`pending`), then holding the ATS id (`linked`). */
export interface LinkState {
  externalId: string | null;
  state: 'pending' | 'linked';
}

/** How the record's ATS id was had: linked before, found after an unsure create, or created now. */
export type Written<C> =
  | { how: 'linked'; externalId: string }
  | { how: 'found'; externalId: string }
  | { how: 'created'; externalId: string; created: C };

/** The link row of one record, its key bound by the caller. */
export interface LinkStore<C> {
  /** The claim, committed before the create: after a crash or an unsure answer the next try looks first. */
  claim(): Promise<void>;
  /** The ATS record exists: made by this create, or found after an unsure one. */
  link(written: Exclude<Written<C>, { how: 'linked' }>): Promise<void>;
  /** Frees the claim after a create that surely did not happen; a store without it keeps every claim. */
  release?(): Promise<void>;
}

/** One ATS's create of one record, and the lookup that tells whether an earlier unsure create landed. */
export interface CreateSink<C extends { externalId: string }> {
  findExisting(): Promise<string | undefined>;
  create(): Promise<C>;
}

/**
 * The one way a record is created in an ATS exactly once: a linked record is left alone; a pending claim
 * (an earlier create crashed or timed out) is looked up first; otherwise claim, create, link.
 * The caller holds the record's lock (`CandidateLocks`).
 */
export async function writeOnce<C extends { externalId: string }>(
  current: LinkState | undefined,
  store: LinkStore<C>,
  sink: CreateSink<C>,
): Promise<Written<C>> {
  if (current?.externalId) return { how: 'linked', externalId: current.externalId };
  if (current?.state === 'pending') {
    const externalId = await sink.findExisting();
    if (externalId) {
      const found = { how: 'found', externalId } as const;
      await store.link(found);
      return found;
    }
  }
  await store.claim();
  let created: C;
  try {
    created = await sink.create();
  } catch (error) {
    // Only a create that may have landed keeps its claim, so the next try looks it up.
    if (store.release && !(error instanceof AtsError && error.ambiguous)) await store.release();
    throw error;
  }
  const written = { how: 'created', externalId: created.externalId, created } as const;
  await store.link(written);
  return written;
}

/** What applying an event to a record came to; `unchanged` is logged, the others announced. */
export type SyncOutcome =
  { action: 'created' | 'updated'; externalId: string } | { action: 'unchanged'; why: string };

/** A link row that also keeps the last event applied and the event that created the record. */
export interface OrderedLink extends LinkState, AppliedMark {
  createdEventId: string | null;
}

export interface InOrder {
  event: { id: string; occurredAt: string };
  contentHash: string;
  link: OrderedLink | undefined;
  /** Why a stale or duplicate event changes nothing, as logged. */
  skipped: { stale: string; duplicate: string };
}

/**
 * Applies an event to a record unless an event at least as new was applied: `apply` runs `writeOnce`
 * and the update, and returns what `writeOnce` wrote; a replayed event is announced again unchanged.
 */
export async function syncInOrder(
  { event, contentHash, link, skipped }: InOrder,
  apply: () => Promise<Written<unknown>>,
): Promise<SyncOutcome> {
  switch (orderOf(event, contentHash, link)) {
    case 'stale':
      return { action: 'unchanged', why: skipped.stale };
    case 'duplicate':
      return { action: 'unchanged', why: skipped.duplicate };
    case 'replayed':
      // Applied before, but the synced event may not have gone out: say it again.
      if (link?.externalId) {
        return {
          action: link.createdEventId === event.id ? 'created' : 'updated',
          externalId: link.externalId,
        };
      }
      break;
    case 'apply':
      break;
  }
  const written = await apply();
  const createdEventId = written.how === 'created' ? event.id : link?.createdEventId;
  return { action: createdEventId === event.id ? 'created' : 'updated', externalId: written.externalId };
}
