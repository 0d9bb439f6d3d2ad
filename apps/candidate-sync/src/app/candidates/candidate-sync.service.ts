import { Injectable, Logger } from '@nestjs/common';
import { ConnectorDirectory, toMessageError } from '@connector/ats-access';
import type { CandidateDataDto, ConnectorSnapshot, EventEnvelope } from '@connector/contracts';
import { combinedFailure, type MessageHandlingError, TransientMessageError } from '@connector/messaging';
import {
  CandidateLocks,
  type SyncOutcome,
  syncInOrder,
  type Written,
  writeOnce,
} from '@connector/exactly-once';
import { targetOf, waitForAuthorization } from '../common/connector-targets';
import { SyncedEvents } from '../common/synced-events';
import { type CandidateLink, CandidateLinkRepository } from './candidate-link.repository';
import { NOTHING_SENT, type SentState } from './candidate-sink';
import { CandidateSinks } from './candidate-sinks';
import { hashOf } from './field-diff';

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
  ) {}

  async sync(event: CandidateEvent): Promise<void> {
    let connectors: ConnectorSnapshot[];
    try {
      connectors = await this.directory.forAccount(event.accountId);
    } catch (error) {
      throw new TransientMessageError(`connectors of ${event.accountId}: ${(error as Error).message}`);
    }
    const failures: MessageHandlingError[] = [];
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
      try {
        await this.syncTo(connector, event);
      } catch (error) {
        failures.push(toMessageError(error, connector.id));
      }
    }
    const failure = combinedFailure(failures);
    if (failure) throw failure;
  }

  private async syncTo(connector: ConnectorSnapshot, event: CandidateEvent): Promise<void> {
    const { candidateId } = event.data;
    const outcome = await this.locks.run(connector.id, candidateId, () => this.applyLocked(connector, event));
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
  }

  private async applyLocked(connector: ConnectorSnapshot, event: CandidateEvent): Promise<SyncOutcome> {
    const { candidateId } = event.data;
    const contentHash = hashOf(event.data);
    const link = await this.links.find(connector.id, candidateId);
    return syncInOrder({ event, contentHash, link, skipped: SKIPPED }, async () => {
      const sink = this.sinks.for(connector, event.id);
      const written = await writeOnce(
        link,
        {
          claim: () => this.links.markPending(connector.id, candidateId, event.accountId, event.id),
          link: (linked) =>
            linked.how === 'created'
              ? this.links.link(connector.id, candidateId, linked.externalId, linked.created.sent, event.id)
              : // What the found record holds is unknown: every field is sent.
                this.links.link(
                  connector.id,
                  candidateId,
                  linked.externalId,
                  NOTHING_SENT,
                  link?.createdEventId ?? null,
                ),
        },
        { findExisting: () => sink.findExisting(event.data), create: () => sink.create(event.data) },
      );
      if (written.how === 'found') {
        this.logger.warn(
          `candidate ${candidateId} found in ${connector.id} as ${written.externalId} after an unsure create`,
        );
      }
      const sent = await sink.update(written.externalId, event.data, sentBefore(written, link), (progress) =>
        this.links.saveSent(connector.id, candidateId, progress),
      );
      await this.links.applied(connector.id, candidateId, event, contentHash, sent);
      return written;
    });
  }
}

const SKIPPED = {
  stale: 'older than the state the ATS has; skipped',
  duplicate: 'same content as the event applied; skipped',
};

function sentBefore(written: Written<{ sent: SentState }>, link: CandidateLink | undefined): SentState {
  switch (written.how) {
    case 'created':
      return written.created.sent;
    case 'found':
      return NOTHING_SENT;
    case 'linked':
      return link?.sent ?? NOTHING_SENT;
  }
}
