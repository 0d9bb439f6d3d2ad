import { Injectable, Logger } from '@nestjs/common';
import { AtsClientFactory, ConnectorDirectory, toMessageError } from '@connector/ats-access';
import type { ApplicationDataDto, ConnectorSnapshot, EventEnvelope } from '@connector/contracts';
import {
  combinedFailure,
  DeferredMessageError,
  type MessageHandlingError,
  NotReadyError,
  PermanentMessageError,
} from '@connector/messaging';
import { CandidateLinkRepository } from '../candidates/candidate-link.repository';
import { hashOf } from '../candidates/field-diff';
import { CandidateLocks } from '../common/candidate-locks';
import { targetOf, waitForAuthorization } from '../common/connector-targets';
import { orderOf } from '../common/event-order';
import { SyncedEvents } from '../common/synced-events';
import { changedAnswers, sentAnswersOf, toQuestions } from './application-answers';
import { type ApplicationKey, ApplicationLinkRepository } from './application-link.repository';
import type { ApplicationSink } from './application-sink';
import { ApplicationSinks } from './application-sinks';

export type ApplicationEvent = EventEnvelope<string, ApplicationDataDto>;

type Outcome = { action: 'created' | 'updated'; externalId: string } | { action: 'unchanged'; why: string };

/**
 * An application into the connector of each vacancy it names: one ATS application per (candidate,
 * vacancy), claimed before the create and looked up after an unsure one; it waits for its candidate.
 */
@Injectable()
export class ApplicationSyncService {
  private readonly logger = new Logger(ApplicationSyncService.name);

  constructor(
    private readonly directory: ConnectorDirectory,
    private readonly sinks: ApplicationSinks,
    private readonly applications: ApplicationLinkRepository,
    private readonly candidates: CandidateLinkRepository,
    private readonly locks: CandidateLocks,
    private readonly events: SyncedEvents,
    private readonly clients: AtsClientFactory,
  ) {}

  async sync(event: ApplicationEvent): Promise<void> {
    const byConnector = new Map<string, string[]>();
    for (const vacancy of event.data.vacancies) {
      const list = byConnector.get(vacancy.connectorId) ?? [];
      if (!list.includes(vacancy.externalId)) list.push(vacancy.externalId);
      byConnector.set(vacancy.connectorId, list);
    }
    const failures: MessageHandlingError[] = [];
    for (const [connectorId, vacancies] of byConnector) {
      try {
        await this.syncTo(connectorId, vacancies, event);
      } catch (error) {
        failures.push(toMessageError(error, connectorId));
      }
    }
    const failure = combinedFailure(failures);
    if (failure) throw failure;
  }

  private async syncTo(connectorId: string, vacancies: string[], event: ApplicationEvent): Promise<void> {
    const connector = await this.directory.get(connectorId, event.accountId);
    if (connector.accountId !== event.accountId) {
      throw new PermanentMessageError(
        `connector ${connectorId} is not a connector of ${event.accountId}`,
        connectorId,
      );
    }
    switch (targetOf(connector.status)) {
      case 'skip':
        return;
      case 'wait':
        throw waitForAuthorization(connector);
      case 'work':
        break;
    }
    const sink = this.sinks.for(connector, event.id);
    if (!sink) {
      await this.events.unsupported(event, {
        connectorId,
        sourceEventId: event.id,
        sourceType: event.type,
        reason: `${connector.type} has no application operation in this integration`,
      });
      return;
    }
    for (const vacancyExternalId of vacancies) {
      const key = { connectorId, candidateId: event.data.candidateId, vacancyExternalId };
      const outcome = await this.locks.run(connectorId, event.data.candidateId, () =>
        this.applyLocked(connector, sink, key, event),
      );
      if (outcome.action === 'unchanged') {
        this.logger.log(`${event.type} ${event.id} for ${connectorId}/${vacancyExternalId}: ${outcome.why}`);
        continue;
      }
      await this.events.applicationSynced(event, {
        connectorId,
        applicationId: event.data.applicationId,
        vacancyExternalId,
        externalId: outcome.externalId,
        action: outcome.action,
      });
    }
  }

  private async applyLocked(
    connector: ConnectorSnapshot,
    sink: ApplicationSink,
    key: ApplicationKey,
    event: ApplicationEvent,
  ): Promise<Outcome> {
    const candidate = await this.candidates.find(connector.id, key.candidateId);
    if (!candidate?.externalId) {
      // Its candidate may be waiting for budget: then this waits as long, without using up attempts.
      const budgetAt = await this.clients.pushBudgetWait(connector);
      if (budgetAt) {
        throw new DeferredMessageError(
          `candidate ${key.candidateId} is not in ${connector.id} yet and pushes wait for ATS budget until ${budgetAt.toISOString()}`,
          budgetAt,
          connector.id,
        );
      }
      throw new NotReadyError(
        `candidate ${key.candidateId} is not in ${connector.id} yet; waiting`,
        connector.id,
      );
    }
    const questions = toQuestions(event.data.answers);
    const contentHash = hashOf(questions);
    const link = await this.applications.find(key);
    switch (orderOf(event, contentHash, link)) {
      case 'stale':
        return { action: 'unchanged', why: 'older than the answers the ATS has; skipped' };
      case 'duplicate':
        return { action: 'unchanged', why: 'same answers as the event applied; skipped' };
      case 'replayed':
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

    let externalId = link?.externalId ?? undefined;
    let sent = link?.answers ?? {};
    let createdEventId = link?.createdEventId ?? null;
    if (!externalId && link?.state === 'pending') {
      externalId = await sink.findExisting(candidate.externalId, key.vacancyExternalId);
      if (externalId) {
        this.logger.warn(
          `application ${key.candidateId}/${key.vacancyExternalId} found as ${externalId} after an unsure create`,
        );
        sent = {}; // its answers are unknown: send them all
        await this.applications.link(key, externalId, sent);
      }
    }
    if (!externalId) {
      await this.applications.markPending(key, event.data.applicationId, event.id);
      externalId = await sink.create(candidate.externalId, key.vacancyExternalId, questions);
      sent = sentAnswersOf(questions);
      createdEventId = event.id;
      await this.applications.link(key, externalId, sent);
    }
    const changed = changedAnswers(questions, sent);
    if (changed.length > 0) await sink.updateAnswers(externalId, changed);
    await this.applications.applied(key, event, contentHash, sentAnswersOf(questions));
    return { action: createdEventId === event.id ? 'created' : 'updated', externalId };
  }
}
