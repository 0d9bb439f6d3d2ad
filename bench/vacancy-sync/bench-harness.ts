/**
 * What the vacancy-sync benchmark needs around the service: RabbitMQ taps, a stand-in for connector-registry's
 * connector lookups, auth-gateway as a process, and connectors set up through it.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { ConsumeMessage } from 'amqplib';
import type { RunningAtsASandbox } from '@connector/ats-a-sandbox';
import type { RunningAtsBSandbox } from '@connector/ats-b-sandbox';
import {
  type ConnectorSnapshot,
  createEvent,
  type EventEnvelope,
  Exchange,
  Queue,
  RoutingKey,
  type RunCompletedDto,
} from '@connector/contracts';
import { type AtsType, defaultJobMapping } from '@connector/ats-registry';
import { RabbitConnection, RpcClient } from '@connector/messaging';
import {
  createTestDatabase,
  eventually,
  rabbitUrl,
  startService,
  type ServiceProcess,
  TestBroker,
  type TestDatabase,
} from '@connector/testing';
import {
  authorizeAtsB,
  type ConnectorDirectoryStub,
  startAuthGateway,
  saveAtsACredentials,
  startConnectorDirectoryStub,
} from '@connector/service-stubs';

export const ACCOUNT = 'acct_bench';
export const CLIENT_SECRET = `secret-${randomBytes(8).toString('hex')}`;
/** Large enough that the shared budget never slows a benchmark run. */
export const BENCH_DAILY_CALL_LIMIT = 100_000_000;

const snapshots = new Map<string, ConnectorSnapshot>();

export interface RunResult {
  completed: RunCompletedDto;
  wallMs: number;
  events: number;
}

export class BenchHarness {
  private constructor(
    readonly database: TestDatabase,
    private readonly broker: TestBroker,
    private readonly stub: ConnectorDirectoryStub,
    private readonly gateway: ServiceProcess,
    private readonly connection: RabbitConnection,
    private readonly rpc: RpcClient,
    private readonly vacancyEvents: ConsumeMessage[][],
    private readonly completed: ConsumeMessage[],
  ) {}

  static async start(atsB: RunningAtsBSandbox): Promise<BenchHarness> {
    const database = await createTestDatabase('bench_vacancy_sync');
    const broker = await TestBroker.connect();
    await broker.deleteQueuesIfPresent([Queue.ConnectorRegistry, Queue.VacancySync, Queue.AuthGateway]);
    const vacancyEvents = [
      await broker.tap(Exchange.ConnectorEvents, RoutingKey.VacancyUpserted),
      await broker.tap(Exchange.ConnectorEvents, RoutingKey.VacancyClosed),
    ];
    const completed = await broker.tap(Exchange.ConnectorEvents, RoutingKey.RunCompleted);
    const stub = await startConnectorDirectoryStub(snapshots);
    const gateway = await startAuthGateway(atsB, {
      DATABASE_URL: database.url,
      RABBITMQ_URL: rabbitUrl(),
      LOG_LEVEL: 'warn',
    });
    const connection = new RabbitConnection({ url: rabbitUrl(), name: 'bench-vacancy-sync' });
    const rpc = new RpcClient(connection, 'connector-registry');
    return new BenchHarness(database, broker, stub, gateway, connection, rpc, vacancyEvents, completed);
  }

  /** A fresh vacancy-sync process, so its peak RSS belongs to one scenario. */
  startWorker(): Promise<ServiceProcess> {
    return startService('vacancy-sync', {
      DATABASE_URL: this.database.url,
      RABBITMQ_URL: rabbitUrl(),
      LOG_LEVEL: 'warn',
    });
  }

  async atsAConnector(sandbox: RunningAtsASandbox): Promise<string> {
    const connectorId = randomUUID();
    const config = { baseUrl: sandbox.url, clientId: 'demo-client', clientSecret: CLIENT_SECRET };
    await saveAtsACredentials(this.rpc, ACCOUNT, connectorId, config);
    this.snapshot(connectorId, 'ats-a', { baseUrl: sandbox.url, clientId: 'demo-client' });
    return connectorId;
  }

  async atsBConnector(): Promise<string> {
    const connectorId = randomUUID();
    await authorizeAtsB(this.rpc, ACCOUNT, connectorId);
    this.snapshot(connectorId, 'ats-b', { routine: 'api-oauth' });
    return connectorId;
  }

  /** "Run", timed from the request to its run.completed; events are the vacancy.* events the run caused. */
  async run(connectorId: string, mode: 'full' | 'incremental', timeoutMs = 15 * 60_000): Promise<RunResult> {
    const runId = randomUUID();
    const event = createEvent(RoutingKey.RunRequested, ACCOUNT, { connectorId, runId, mode });
    const started = performance.now();
    this.broker.publish(Exchange.Internal, RoutingKey.RunRequested, event);
    const done = await eventually(
      () =>
        this.completed
          .map((m) => JSON.parse(m.content.toString()) as EventEnvelope<string, RunCompletedDto>)
          .find((e) => e.data.runId === runId),
      timeoutMs,
      `run.completed of ${runId}`,
    );
    const wallMs = performance.now() - started;
    // Confirmed publishes reach the taps before run.completed does; count them, then let the memory go.
    let events = 0;
    for (const tap of this.vacancyEvents) {
      for (const m of tap) {
        if ((JSON.parse(m.content.toString()) as EventEnvelope).correlationId === event.id) events++;
      }
      tap.length = 0;
    }
    return { completed: done.data, wallMs, events };
  }

  async stop(): Promise<void> {
    await this.rpc.close();
    await this.connection.close();
    await this.gateway.stop();
    await this.stub.close();
    await this.broker.close();
    await this.database.drop();
  }

  private request<T>(type: string, data: object): Promise<T> {
    return this.rpc.request<T>(createEvent(type, ACCOUNT, data), 30_000);
  }

  private snapshot(id: string, type: AtsType, config: Record<string, unknown>): void {
    snapshots.set(id, {
      id,
      accountId: ACCOUNT,
      type,
      name: `bench ${type}`,
      status: 'connected',
      options: { dailyCallLimit: BENCH_DAILY_CALL_LIMIT },
      config,
      mapping: { version: 1, mapping: defaultJobMapping(type) as unknown as Record<string, unknown> },
      updatedAt: new Date().toISOString(),
    });
  }
}

/** Peak resident set size of a process (VmHWM), in MiB. */
export function peakRssMiB(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmHWM:\s+(\d+) kB/.exec(status)?.[1] ?? NaN);
  return kb / 1024;
}
