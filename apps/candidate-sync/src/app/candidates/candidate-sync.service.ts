import { Injectable, Logger } from '@nestjs/common';
import { ConnectorDirectory, toMessageError } from '@connector/ats-access';
import type { CandidateDataDto, ConnectorSnapshot, EventEnvelope } from '@connector/contracts';
import { combinedFailure, type MessageHandlingError, TransientMessageError } from '@connector/messaging';
import { CandidateLocks } from '../common/candidate-locks';
import { targetOf, waitForAuthorization } from '../common/connector-targets';
import { orderOf } from '../common/event-order';
import { SyncedEvents } from '../common/synced-events';
import { CandidateLinkRepository } from './candidate-link.repository';
import { NOTHING_SENT } from './candidate-sink';
import { CandidateSinks } from './candidate-sinks';
import { hashOf } from './field-diff';

export type CandidateEvent = EventEnvelope<string, CandidateDataDto>;

type Outcome = { action: 'created' | 'updated'; externalId: string } | { action: 'unchanged'; why: string };

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

  private async applyLocked(connector: ConnectorSnapshot, event: CandidateEvent): Promise<Outcome> {
    const { candidateId } = event.data;
    const contentHash = hashOf(event.data);
    const link = await this.links.find(connector.id, candidateId);
    const order = orderOf(event, contentHash, link);
    switch (order) {
      case 'stale':
        return { action: 'unchanged', why: 'older than the state the ATS has; skipped' };
      case 'duplicate':
        return { action: 'unchanged', why: 'same content as the event applied; skipped' };
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

    const sink = this.sinks.for(connector, event.id);
    let externalId = link?.externalId ?? undefined;
    let sent = link?.sent ?? NOTHING_SENT;
    let createdEventId = link?.createdEventId ?? null;
    if (!externalId && link?.state === 'pending') {
      // An earlier create may have landed without us hearing the answer.
      externalId = await sink.findExisting(event.data);
      if (externalId) {
        this.logger.warn(
          `candidate ${candidateId} found in ${connector.id} as ${externalId} after an unsure create`,
        );
        sent = NOTHING_SENT; // what it holds is unknown: send every field
        await this.links.link(connector.id, candidateId, externalId, sent, createdEventId);
      }
    }
    if (!externalId) {
      await this.links.markPending(connector.id, candidateId, event.accountId, event.id);
      const created = await sink.create(event.data);
      externalId = created.externalId;
      sent = created.sent;
      createdEventId = event.id;
      await this.links.link(connector.id, candidateId, externalId, sent, createdEventId);
    }
    const id = externalId;
    sent = await sink.update(id, event.data, sent, (progress) =>
      this.links.saveSent(connector.id, candidateId, progress),
    );
    await this.links.applied(connector.id, candidateId, event, contentHash, sent);
    return { action: createdEventId === event.id ? 'created' : 'updated', externalId: id };
  }
}
