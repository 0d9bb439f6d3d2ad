import { Injectable, Logger } from '@nestjs/common';
import { AtsSystems, ConnectorDirectory, toMessageError } from '@connector/ats-client-factory';
import type { CandidateDataDto, ConnectorSnapshot, EventEnvelope } from '@connector/contracts';
import { combinedFailure, type MessageHandlingError } from '@connector/messaging';
import { withLogContext } from '@connector/observability';
import type { Lease } from '@connector/persistence';
import { CandidateErasedError, ErasedCandidates } from '@connector/service-kit';
import {
  CandidateLocks,
  recordLanded,
  type SyncOutcome,
  syncInOrder,
  type Written,
  writeOnce,
} from '@connector/exactly-once';
import { targetOf, waitForAuthorization } from '../common/connector-targets';
import { SyncedEvents } from '../common/synced-events';
import { type CandidateLink, CandidateLinkRepository, type ClaimOrFind } from './candidate-link.repository';
import { type CreatedCandidate, FieldHasher, NOTHING_SENT, type SentState } from '@connector/ats-core';
import { CandidateSinks } from './candidate-sinks';

export type CandidateEvent = EventEnvelope<string, CandidateDataDto>;

/**
 * A candidate's profile into every connector of the account, exactly once per connector: work on one
 * candidate is serialised by a lock; an event older than the one applied is skipped; a create is recorded
 * as pending first, so after a crash or a timeout the ATS is searched before creating again.
 */
@Injectable()
export class CandidateSyncService {
  private readonly logger = new Logger(CandidateSyncService.name);

  constructor(
    private readonly directory: ConnectorDirectory,
    private readonly sinks: CandidateSinks,
    private readonly links: CandidateLinkRepository,
    private readonly locks: CandidateLocks,
    private readonly events: SyncedEvents,
    private readonly hasher: FieldHasher,
    private readonly erased: ErasedCandidates,
    private readonly systems: AtsSystems,
  ) {}

  /**
   * Erased candidates are found under each connector's lock (claimOrFind), or here when no connector takes
   * work: CandidateErasedError either way, for the handler to refuse the event (ErasedCandidates.refusedInside).
   */
  async sync(event: CandidateEvent): Promise<void> {
    let connectors: ConnectorSnapshot[];
    try {
      connectors = await this.directory.forAccount(event.accountId);
    } catch (error) {
      // An erased candidate's event is refused even while the registry is out of reach.
      await this.erased.assertNotErased(event.accountId, event.data.candidateId);
      throw error;
    }
    const failures: MessageHandlingError[] = [];
    let working = false;
    for (const connector of connectors) {
      switch (targetOf(connector.status)) {
        case 'skip':
          continue;
        case 'wait':
          failures.push(waitForAuthorization(connector));
          continue;
        case 'work':
          break;
      }
      working = true;
      try {
        // One of the ATS system's slots, taken before the claim: a busy or failing system defers the message
        // here, with nothing claimed or written, and its handler goes to another account's message.
        await withLogContext({ connectorId: connector.id }, () =>
          this.systems.run('candidate-writes', connector, () => this.syncTo(connector, event), {
            since: event.occurredAt,
          }),
        );
      } catch (error) {
        failures.push(toMessageError(error, connector.id));
      }
    }
    // An erased candidate's event is refused now, whatever else failed: it is kept nowhere, not retried.
    const erased = failures.find((failure) => failure instanceof CandidateErasedError);
    if (erased) throw erased;
    if (!working) await this.erased.assertNotErased(event.accountId, event.data.candidateId);
    const failure = combinedFailure(failures);
    if (failure) throw failure;
  }

  private async syncTo(connector: ConnectorSnapshot, event: CandidateEvent): Promise<void> {
    const { candidateId } = event.data;
    // The lock, and the candidate's link read or its create claimed: one statement (claimOrFind).
    const outcome = await this.locks.runBy(
      this.links.claimOrFind(
        { connectorId: connector.id, candidateId },
        { accountId: event.accountId, eventId: event.id },
      ),
      (lease, found) => this.applyLocked(connector, event, lease, found),
    );
    if (outcome.action === 'unchanged') {
      this.logger.log(`${event.type} ${event.id} for ${connector.id}: ${outcome.why}`);
      return;
    }
    await this.events.candidateSynced(event, {
      connectorId: connector.id,
      candidateId,
      externalId: outcome.externalId,
      action: outcome.action,
    });
    this.logger.log(`${event.type} ${event.id}: ${outcome.action} in the ATS as ${outcome.externalId}`);
  }

  private async applyLocked(
    connector: ConnectorSnapshot,
    event: CandidateEvent,
    { token: fence, signal, release: unlock }: Lease,
    found: ClaimOrFind,
  ): Promise<SyncOutcome> {
    const key = { connectorId: connector.id, candidateId: event.data.candidateId };
    const contentHash = this.hasher.hash(event.data);
    if (found.erased) throw new CandidateErasedError(key.candidateId, connector.id);
    const link = found.claimed ? undefined : found.link;
    let claimed = found.claimed;
    return syncInOrder({ event, contentHash, link, skipped: SKIPPED }, async () => {
      const sink = this.sinks.for(connector, event.id);
      const written = await writeOnce(
        link,
        {
          claim: async () => {
            if (claimed)
              claimed = false; // taken by claimOrFind
            else await this.links.markPending(key, { accountId: event.accountId, eventId: event.id, fence });
          },
          // A create the ATS surely refused frees its claim: the retry creates at once, not after the unsure wait.
          release: () => this.links.release(key, { fence }),
          link: (linked) => {
            // Recorded below with the event, one statement: no ATS call comes between.
            if (linked.how === 'created' && linked.created.complete) return Promise.resolve();
            // What a found record holds is unknown: every field is sent.
            const sent = linked.how === 'created' ? linked.created.sent : NOTHING_SENT;
            return this.links.link(key, { externalId: linked.externalId, sent, fence });
          },
        },
        {
          findExisting: () => sink.findExisting(event.data),
          create: () => sink.create(event.data, signal),
          settleMs: sink.settleMs,
        },
        signal,
      );
      if (written.how === 'created' && written.created.complete) {
        // The new record's id, kept trying while Postgres is briefly away (as writeOnce records its links).
        await recordLanded(
          () =>
            this.links.applied(key, {
              event,
              contentHash,
              sent: written.created.sent,
              created: { externalId: written.externalId },
              fence,
              release: unlock,
            }),
          signal,
        );
        return written;
      }
      if (written.how === 'found') {
        this.logger.warn(
          `candidate ${key.candidateId} found in ${connector.id} as ${written.externalId} after an unsure create`,
        );
      }
      signal.throwIfAborted();
      // A child record the ATS answered is only this process's to know until its checkpoint is written:
      // kept trying while Postgres is briefly away, as a create's id is (recordLanded).
      const sent = await sink.update(
        written.externalId,
        event.data,
        sentBefore(written, link),
        (progress) =>
          recordLanded(
            () => this.links.saveSent(key, { sent: progress, occurredAt: event.occurredAt, fence }),
            signal,
          ),
        signal,
      );
      // The last write under the lock, which goes with it.
      await this.links.applied(key, { event, contentHash, sent, fence, release: unlock });
      return written;
    });
  }
}

const SKIPPED = {
  stale: 'older than the state the ATS has; skipped',
  duplicate: 'same content as the event applied; skipped',
};

function sentBefore(written: Written<CreatedCandidate>, link: CandidateLink | undefined): SentState {
  switch (written.how) {
    case 'created':
      return written.created.sent;
    case 'found':
      return NOTHING_SENT;
    case 'linked':
      return link?.sent ?? NOTHING_SENT;
  }
}
