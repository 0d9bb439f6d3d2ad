import { AtsError, UNSURE_WRITE_SETTLE_MS } from '@connector/ats-http';
import { NotReadyError, PermanentMessageError } from '@connector/messaging';
import { type AppliedMark, orderOf } from './event-order';

/** A record's link row: claimed before its ATS create (`pending`), then holding the ATS id (`linked`). */
export interface LinkState {
  externalId: string | null;
  state: 'pending' | 'linked';
  /** When the row last changed: for a pending row, when it was claimed (just before its create). */
  updatedAt?: Date | null;
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
  /**
   * From a claim until a look-up surely sees its create if it landed: the call's timeout and the ATS's index
   * lag (the client's `unsureWriteSettleMs`). Default UNSURE_WRITE_SETTLE_MS, for an ATS that names none.
   */
  settleMs?: number;
}

/**
 * The one way a record is created in an ATS exactly once: a linked record is left alone; a pending claim
 * (an earlier create crashed or timed out) is looked up first, and created again only once the earlier
 * create can no longer land (`sink.settleMs` after its claim); otherwise claim, create, link.
 * The caller holds the record's lock (`CandidateLocks`).
 */
export async function writeOnce<C extends { externalId: string }>(
  current: LinkState | undefined,
  store: LinkStore<C>,
  sink: CreateSink<C>,
  /** The lock's signal: once the lease is lost, no ATS call starts (another worker may be at it). */
  signal?: AbortSignal,
): Promise<Written<C>> {
  if (current?.externalId) return { how: 'linked', externalId: current.externalId };
  if (current?.state === 'pending') {
    signal?.throwIfAborted();
    const externalId = await sink.findExisting();
    if (externalId) {
      const found = { how: 'found', externalId } as const;
      await store.link(found);
      return found;
    }
    // The ATS may still apply the unsure create (it sat in its queue): not finding it yet proves nothing.
    const age = Date.now() - (current.updatedAt?.getTime() ?? 0);
    if (age < (sink.settleMs ?? UNSURE_WRITE_SETTLE_MS)) {
      throw new NotReadyError(
        `an earlier create of this record got no answer ${Math.round(age / 1000)} s ago and may still land ` +
          'in the ATS; looking again later',
      );
    }
  }
  await store.claim();
  let created: C;
  try {
    signal?.throwIfAborted();
    created = await sink.create();
  } catch (error) {
    // Only a create that may have landed keeps its claim, so the next try looks it up.
    if (store.release && !(error instanceof AtsError && error.ambiguous)) await store.release();
    throw error;
  }
  const written = { how: 'created', externalId: created.externalId, created } as const;
  await recordLanded(() => store.link(written), signal);
  return written;
}

/** How long the id of a create that landed is kept trying to be recorded while the database is out of reach. */
const RECORD_RETRY_MS = 30_000;

/**
 * Records the id of a create the ATS answered, trying again while the database is out of reach (a restart, a
 * failover): only this process knows the id now, and a next try that finds just the claim must look the
 * record up, wait for an unsure write to settle, or, where the ATS cannot be asked, give it up. Stops when the
 * lease is lost (the fencing token would refuse the write anyway) or after `budgetMs`.
 */
export async function recordLanded(
  record: () => Promise<void>,
  signal?: AbortSignal,
  budgetMs = RECORD_RETRY_MS,
  firstDelayMs = 250,
): Promise<void> {
  const until = Date.now() + budgetMs;
  for (let delayMs = firstDelayMs; ; delayMs = Math.min(delayMs * 2, 4_000)) {
    try {
      return await record();
    } catch (error) {
      if (signal?.aborted || Date.now() + delayMs > until) throw error;
      await new Promise((resolve) => setTimeout(resolve, delayMs));
    }
  }
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
    case 'reused':
      throw new PermanentMessageError(
        `message id ${event.id} was already received with different content; ids must not be reused`,
      );
    case 'apply':
      break;
  }
  const written = await apply();
  const createdEventId = written.how === 'created' ? event.id : link?.createdEventId;
  return { action: createdEventId === event.id ? 'created' : 'updated', externalId: written.externalId };
}
