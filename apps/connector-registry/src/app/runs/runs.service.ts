import { randomUUID } from 'node:crypto';
import { Inject, Injectable, Logger } from '@nestjs/common';
import {
  createEvent,
  type EventEnvelope,
  Exchange,
  type RunCompletedDto,
  type RunMode,
  type RunProgressDto,
  RoutingKey,
} from '@connector/contracts';
import { MessagePublisher } from '@connector/messaging';
import type { AdminIdentity } from '../auth/api-keys';
import { RegistryErrorCode, RegistryException } from '../common/registry.exception';
import { ConnectorRegistryConfig } from '../connector-registry.config';
import { ConnectorsService } from '../connectors/connectors.service';
import { ConnectorRepository } from '../repositories/connector.repository';
import { RunRepository } from '../repositories/run.repository';
import { RunEntity } from './run.entity';
import { EMPTY_COUNTS, nextRunState, type RunEvent } from './run-state';
import { type RunView, toRunView } from './run.view';

const DEFAULT_RUN_LIST_LIMIT = 20;
/** When a run refused for the account's limit may be asked for again: most runs take well under a minute. */
const RUN_LIMIT_RETRY_AFTER_SECONDS = 60;

/** "Run": a data fetch vacancy-sync does for a connector, and its history. */
@Injectable()
export class RunsService {
  private readonly logger = new Logger(RunsService.name);

  constructor(
    private readonly connectors: ConnectorsService,
    private readonly runs: RunRepository,
    private readonly publisher: MessagePublisher,
    private readonly connectorRows: ConnectorRepository,
    @Inject(ConnectorRegistryConfig)
    private readonly config: Pick<ConnectorRegistryConfig, 'MAX_CONCURRENT_RUNS_PER_ACCOUNT'>,
  ) {}

  async start(admin: AdminIdentity, connectorId: string, mode: RunMode = 'incremental') {
    const connector = await this.connectors.findOwned(admin, connectorId);
    if (connector.status !== 'connected') {
      throw new RegistryException(
        RegistryErrorCode.ConnectorNotConnected,
        `The connector is ${connector.status}; only a connected connector can run`,
        { status: connector.status },
      );
    }
    const run = Object.assign(new RunEntity(), {
      id: randomUUID(),
      connectorId,
      accountId: connector.accountId,
      status: 'queued',
      mode,
      counts: { ...EMPTY_COUNTS },
      apiCalls: 0,
      errors: [],
      warnings: [],
      queuedAt: new Date(),
      startedAt: null,
      finishedAt: null,
    } satisfies Omit<RunEntity, 'updatedAt'>);
    const max = this.config.MAX_CONCURRENT_RUNS_PER_ACCOUNT;
    const inserted = await this.runs.insertQueued(run, max);
    if (!inserted.inserted && 'accountLimit' in inserted) {
      throw new RegistryException(
        RegistryErrorCode.RunLimit,
        `This account has ${max} runs going, the most it may have at once; try again when one has ended`,
        { limit: max },
        RUN_LIMIT_RETRY_AFTER_SECONDS,
      );
    }
    if (!inserted.inserted) {
      throw new RegistryException(
        RegistryErrorCode.RunInProgress,
        'A run of this connector is already in progress',
        {
          runId: inserted.activeRunId,
        },
      );
    }
    try {
      await this.publisher.publish(
        Exchange.Internal,
        createEvent(RoutingKey.RunRequested, connector.accountId, { connectorId, runId: run.id, mode }),
      );
    } catch (error) {
      const reason = `the run request could not be sent: ${(error as Error).message}`;
      this.logger.error(`run ${run.id}: ${reason}`);
      await this.apply(run.id, { kind: 'request_failed', reason, at: new Date() });
      throw new RegistryException(
        RegistryErrorCode.DependencyUnavailable,
        'The run could not be started (message broker unavailable); try again in a moment',
        { runId: run.id },
      );
    }
    return { runId: run.id, status: 'queued' as const };
  }

  async list(admin: AdminIdentity, connectorId: string, limit = DEFAULT_RUN_LIST_LIMIT): Promise<RunView[]> {
    await this.connectors.findOwned(admin, connectorId);
    return (await this.runs.list(connectorId, limit)).map(toRunView);
  }

  async get(admin: AdminIdentity, connectorId: string, runId: string): Promise<RunView> {
    await this.connectors.findOwned(admin, connectorId);
    const run = await this.runs.find(connectorId, runId);
    if (!run) throw RegistryException.notFound('run');
    return toRunView(run);
  }

  async onProgress(event: EventEnvelope<string, RunProgressDto>): Promise<void> {
    const { data } = event;
    await this.applyFor(event.accountId, data.connectorId, data.runId, event.id, data.mode, {
      kind: 'progress',
      counts: { fetched: data.fetched, upserted: data.upserted, unchanged: data.unchanged },
      apiCalls: data.apiCalls,
      at: new Date(event.occurredAt),
      ...(data.waitingUntil ? { waitingUntil: new Date(data.waitingUntil) } : {}),
      ...(data.waitingFor ? { waitingFor: data.waitingFor } : {}),
    });
  }

  async onCompleted(event: EventEnvelope<string, RunCompletedDto>): Promise<void> {
    const { data } = event;
    await this.applyFor(event.accountId, data.connectorId, data.runId, event.id, undefined, {
      kind: 'completed',
      status: data.status,
      counts: { ...data.counts },
      apiCalls: data.apiCalls,
      ...(data.warnings ? { warnings: data.warnings } : {}),
      ...(data.nextRunAt ? { nextRunAt: new Date(data.nextRunAt) } : {}),
      at: new Date(event.occurredAt),
    });
  }

  private async applyFor(
    accountId: string,
    connectorId: string,
    runId: string,
    eventId: string,
    mode: RunMode | undefined,
    event: RunEvent,
  ): Promise<void> {
    const result = await this.apply(runId, event, connectorId);
    if (result !== null) return;
    // A run vacancy-sync started by itself (its schedule): record it, so every run shows in the history.
    const recorded = await this.recordStartedElsewhere(
      accountId,
      connectorId,
      runId,
      mode ?? 'incremental',
      event,
    );
    if (!recorded) this.logger.warn(`${event.kind} ${eventId}: no run ${runId} of connector ${connectorId}`);
  }

  private async recordStartedElsewhere(
    accountId: string,
    connectorId: string,
    runId: string,
    mode: RunMode,
    event: RunEvent,
  ): Promise<boolean> {
    const connector = await this.connectorRows.findLive(connectorId);
    if (!connector || connector.accountId !== accountId) return false;
    const queued = Object.assign(new RunEntity(), {
      id: runId,
      connectorId,
      accountId,
      status: 'queued',
      mode,
      counts: { fetched: 0, upserted: 0, unchanged: 0, closed: 0 },
      apiCalls: 0,
      errors: [],
      warnings: [],
      queuedAt: event.at,
      startedAt: null,
      finishedAt: null,
    });
    const next = nextRunState(queued, event);
    const run = next ? Object.assign(queued, next) : queued;
    const inserted = await this.runs.insertRecorded(run);
    // Only one run of a connector is shown active: while another is, the progress waits for the completion.
    return inserted || run.status === 'queued' || run.status === 'running';
  }

  /** null: no such run; undefined: the event changed nothing (e.g. a late progress after completion). */
  private apply(runId: string, event: RunEvent, connectorId?: string) {
    return this.runs.updateLocked(runId, (run) => {
      if (connectorId !== undefined && run.connectorId !== connectorId) return undefined;
      const next = nextRunState(run, event);
      return next && Object.assign(run, next);
    });
  }
}
