import { randomUUID } from 'node:crypto';
import type { ConsumeMessage } from 'amqplib';
import {
  createEvent,
  Exchange,
  RoutingKey,
  type RunCompletedDto,
  type VacancyClosedDto,
  type VacancyUpsertedDto,
} from '@connector/contracts';
import { eventually } from './eventually';
import { parseEvent } from './event-lookup';
import type { TestBroker } from './test-broker';

/** What vacancy-sync publishes about runs, as a suite's taps keep receiving it. */
export interface VacancyRunTaps {
  upserted: ConsumeMessage[];
  closed: ConsumeMessage[];
  completed: ConsumeMessage[];
}

export async function tapVacancyRuns(broker: TestBroker): Promise<VacancyRunTaps> {
  return {
    upserted: await broker.tap(Exchange.ConnectorEvents, RoutingKey.VacancyUpserted),
    closed: await broker.tap(Exchange.ConnectorEvents, RoutingKey.VacancyClosed),
    completed: await broker.tap(Exchange.ConnectorEvents, RoutingKey.RunCompleted),
  };
}

/** Waits for the run's run.completed; returns it and what the run requested by `requestId` published. */
export async function runOutcome(taps: VacancyRunTaps, requestId: string, runId: string, timeoutMs = 60_000) {
  const done = await eventually(
    () => taps.completed.map((m) => parseEvent<RunCompletedDto>(m)).find((e) => e.data.runId === runId),
    timeoutMs,
    `run.completed of ${runId}`,
  );
  const ofRun = <T>(messages: ConsumeMessage[]) =>
    messages
      .map((m) => parseEvent<T>(m))
      .filter((e) => e.correlationId === requestId)
      .map((e) => e.data);
  return {
    completed: done.data,
    upserts: ofRun<VacancyUpsertedDto>(taps.upserted),
    closures: ofRun<VacancyClosedDto>(taps.closed),
  };
}

/** Publishes run.requested as the registry does (no mode: the run's default) and waits for its outcome. */
export function requestRun(
  broker: TestBroker,
  taps: VacancyRunTaps,
  request: { accountId: string; connectorId: string; mode?: 'full' | 'incremental' },
  timeoutMs = 60_000,
) {
  const runId = randomUUID();
  const event = createEvent(RoutingKey.RunRequested, request.accountId, {
    connectorId: request.connectorId,
    runId,
    ...(request.mode ? { mode: request.mode } : {}),
  });
  broker.publish(Exchange.Internal, RoutingKey.RunRequested, event);
  return runOutcome(taps, event.id, runId, timeoutMs);
}
