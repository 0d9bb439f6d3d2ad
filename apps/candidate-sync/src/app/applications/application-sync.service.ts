import { Injectable, Logger } from '@nestjs/common';
import {
  AtsClientFactory,
  AtsSystems,
  ConnectorDirectory,
  toMessageError,
} from '@connector/ats-client-factory';
import type { ApplicationDataDto, ConnectorSnapshot, EventEnvelope } from '@connector/contracts';
import {
  combinedFailure,
  DeferredMessageError,
  type MessageHandlingError,
  NotReadyError,
  PermanentMessageError,
} from '@connector/messaging';
import { withLogContext } from '@connector/observability';
import { type ApplicationSink, FieldHasher } from '@connector/ats-core';
import {
  CandidateLocks,
  recordLanded,
  type SyncOutcome,
  syncInOrder,
  writeOnce,
} from '@connector/exactly-once';
import type { Lease } from '@connector/persistence';
import { CandidateErasedError, ErasedCandidates } from '@connector/service-kit';
import { targetOf, waitForAuthorization } from '../common/connector-targets';
import { SyncedEvents } from '../common/synced-events';
import { changedAnswers, sentAnswersOf, toQuestions } from './application-answers';
import {
  type ApplicationClaimOrFind,
  type ApplicationKey,
  ApplicationLinkRepository,
} from './application-link.repository';
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
    private readonly locks: CandidateLocks,
    private readonly events: SyncedEvents,
    private readonly clients: AtsClientFactory,
    private readonly hasher: FieldHasher,
    private readonly erased: ErasedCandidates,
    private readonly systems: AtsSystems,
  ) {}

  /**
   * Erased candidates are found under each vacancy's lock (claimOrFind), or here when no connector takes
   * work: CandidateErasedError either way, for the handler to refuse the event (ErasedCandidates.refusedInside).
   */
  async sync(event: ApplicationEvent): Promise<void> {
    const byConnector = new Map<string, string[]>();
    for (const vacancy of event.data.vacancies) {
      const list = byConnector.get(vacancy.connectorId) ?? [];
      if (!list.includes(vacancy.externalId)) list.push(vacancy.externalId);
      byConnector.set(vacancy.connectorId, list);
    }
    const failures: MessageHandlingError[] = [];
    let working = false;
    for (const [connectorId, vacancies] of byConnector) {
      try {
        working =
          (await withLogContext({ connectorId }, () => this.syncTo(connectorId, vacancies, event))) ||
          working;
      } catch (error) {
        failures.push(toMessageError(error, connectorId));
      }
    }
    // An erased candidate's event is refused now, whatever else failed: it is kept nowhere, not retried.
    const erased = failures.find((failure) => failure instanceof CandidateErasedError);
    if (erased) throw erased;
    if (!working) await this.erased.assertNotErased(event.accountId, event.data.candidateId);
    const failure = combinedFailure(failures);
    if (failure) throw failure;
  }

  /** True when it took the candidate's lock (and so checked for an erasure under it). */
  private async syncTo(connectorId: string, vacancies: string[], event: ApplicationEvent): Promise<boolean> {
    const connector = await this.directory.get(connectorId, event.accountId);
    if (connector.accountId !== event.accountId) {
      throw new PermanentMessageError(
        `connector ${connectorId} is not a connector of ${event.accountId}`,
        connectorId,
      );
    }
    switch (targetOf(connector.status)) {
      case 'skip':
        return false;
      case 'wait':
        throw waitForAuthorization(connector);
      case 'work':
        break;
    }
    const sink = this.sinks.for(connector, event.id);
    if (!sink) {
      await this.erased.assertNotErased(event.accountId, event.data.candidateId, connectorId);
      await this.events.unsupported(event, {
        connectorId,
        sourceEventId: event.id,
        sourceType: event.type,
        reason: `${connector.type} has no application operation in this integration`,
      });
      return false;
    }
    // One of the ATS system's slots for every vacancy of this connector, taken before any claim: a busy or
    // failing system defers the message here, with nothing claimed or written.
    return this.systems.run(
      'application-writes',
      connector,
      () => this.applyAll(connector, sink, vacancies, event),
      {
        since: event.occurredAt,
      },
    );
  }

  private async applyAll(
    connector: ConnectorSnapshot,
    sink: ApplicationSink,
    vacancies: string[],
    event: ApplicationEvent,
  ): Promise<boolean> {
    const connectorId = connector.id;
    for (const vacancyExternalId of vacancies) {
      const key = { connectorId, candidateId: event.data.candidateId, vacancyExternalId };
      // The lock, the candidate's ATS id and the application's link read or its create claimed: one statement.
      const outcome = await this.locks.runBy(
        this.applications.claimOrFind(key, {
          accountId: event.accountId,
          applicationId: event.data.applicationId,
          eventId: event.id,
        }),
        (lease, found) => this.applyLocked(connector, sink, key, event, lease, found),
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
    return true;
  }

  private async applyLocked(
    connector: ConnectorSnapshot,
    sink: ApplicationSink,
    key: ApplicationKey,
    event: ApplicationEvent,
    { token: fence, signal, release: unlock }: Lease,
    found: ApplicationClaimOrFind,
  ): Promise<SyncOutcome> {
    if (found.erased) throw new CandidateErasedError(key.candidateId, connector.id);
    if (found.candidateExternalId === null) {
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
    const link = found.claimed ? undefined : found.link;
    let claimed = found.claimed;
    const { candidateExternalId } = found;
    return syncInOrder({ event, contentHash, link, skipped: SKIPPED }, async () => {
      const written = await writeOnce(
        link,
        {
          claim: async () => {
            if (claimed)
              claimed = false; // taken by claimOrFind
            else {
              await this.applications.markPending(key, {
                applicationId: event.data.applicationId,
                eventId: event.id,
                fence,
              });
            }
          },
          link: (linked) =>
            linked.how === 'created'
              ? Promise.resolve() // recorded below with the event, one statement: no ATS call comes between
              : // A found application's answers are unknown: every answer is sent.
                this.applications.link(key, { externalId: linked.externalId, answers: {}, fence }),
        },
        {
          findExisting: () => sink.findExisting(candidateExternalId, key.vacancyExternalId),
          settleMs: sink.settleMs,
          create: async () => ({
            externalId: await sink.create(candidateExternalId, key.vacancyExternalId, questions, signal),
          }),
        },
        signal,
      );
      const answers = sentAnswersOf(questions, this.hasher);
      if (written.how === 'created') {
        // The new application's id, kept trying while Postgres is briefly away (as writeOnce records links).
        await recordLanded(
          () =>
            this.applications.applied(key, {
              event,
              contentHash,
              answers,
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
          `application ${key.candidateId}/${key.vacancyExternalId} found as ${written.externalId} after an unsure create`,
        );
      }
      const sent = written.how === 'linked' ? (link?.answers ?? {}) : {};
      const changed = changedAnswers(questions, sent, this.hasher);
      signal.throwIfAborted();
      if (changed.length > 0) await sink.updateAnswers(written.externalId, changed, signal);
      // The last write under the lock, which goes with it.
      await this.applications.applied(key, { event, contentHash, answers, fence, release: unlock });
      return written;
    });
  }
}

const SKIPPED = {
  stale: 'older than the answers the ATS has; skipped',
  duplicate: 'same answers as the event applied; skipped',
};
