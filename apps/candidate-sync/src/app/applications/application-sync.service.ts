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
import { withLogContext } from '@connector/observability';
import { CandidateLinkRepository } from '../candidates/candidate-link.repository';
import { FieldHasher } from '../candidates/field-diff';
import { CandidateLocks, type SyncOutcome, syncInOrder, writeOnce } from '@connector/exactly-once';
import type { Lease } from '@connector/persistence';
import { ErasedCandidates } from '@connector/service-kit';
import { targetOf, waitForAuthorization } from '../common/connector-targets';
import { SyncedEvents } from '../common/synced-events';
import { changedAnswers, sentAnswersOf, toQuestions } from './application-answers';
import { type ApplicationKey, ApplicationLinkRepository } from './application-link.repository';
import type { ApplicationSink } from './application-sink';
import { ApplicationSinks } from './application-sinks';

export type ApplicationEvent = EventEnvelope<string, ApplicationDataDto>;

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
    private readonly hasher: FieldHasher,
    private readonly erased: ErasedCandidates,
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
        await withLogContext({ connectorId }, () => this.syncTo(connectorId, vacancies, event));
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
      const outcome = await this.locks.run(connectorId, event.data.candidateId, (lease) =>
        this.applyLocked(connector, sink, key, event, lease),
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
    { token: fence, signal }: Lease,
  ): Promise<SyncOutcome> {
    await this.erased.assertNotErased(event.accountId, key.candidateId, connector.id);
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
    const contentHash = this.hasher.hash(questions);
    const link = await this.applications.find(key, fence);
    const candidateExternalId = candidate.externalId;
    return syncInOrder({ event, contentHash, link, skipped: SKIPPED }, async () => {
      const written = await writeOnce(
        link,
        {
          claim: () => this.applications.markPending(key, event.data.applicationId, event.id, fence),
          // A found application's answers are unknown: every answer is sent.
          link: (linked) =>
            this.applications.link(
              key,
              linked.externalId,
              linked.how === 'created' ? sentAnswersOf(questions, this.hasher) : {},
              fence,
            ),
        },
        {
          findExisting: () => sink.findExisting(candidateExternalId, key.vacancyExternalId),
          create: async () => ({
            externalId: await sink.create(candidateExternalId, key.vacancyExternalId, questions),
          }),
        },
        signal,
      );
      if (written.how === 'found') {
        this.logger.warn(
          `application ${key.candidateId}/${key.vacancyExternalId} found as ${written.externalId} after an unsure create`,
        );
      }
      const sent =
        written.how === 'linked'
          ? (link?.answers ?? {})
          : written.how === 'found'
            ? {}
            : sentAnswersOf(questions, this.hasher);
      const changed = changedAnswers(questions, sent, this.hasher);
      signal.throwIfAborted();
      if (changed.length > 0) await sink.updateAnswers(written.externalId, changed);
      await this.applications.applied(key, event, contentHash, sentAnswersOf(questions, this.hasher), fence);
      return written;
    });
  }
}

const SKIPPED = {
  stale: 'older than the answers the ATS has; skipped',
  duplicate: 'same answers as the event applied; skipped',
};
