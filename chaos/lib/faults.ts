import { execFile } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import { ENDPOINT_SCOPES } from '@connector/ats-a-sandbox';
import { RoutingKey } from '@connector/contracts';
import { restartBroker } from '@connector/testing';
import type { ChaosStack, Replica, ServiceName } from './chaos-stack';
import type { HeldRequest } from './fault-proxy';
import type { Progress } from './progress';
import type { SeededRandom } from './seeded-random';

const run = promisify(execFile);

export interface FaultContext {
  stack: ChaosStack;
  random: SeededRandom;
  progress: Progress;
  /** Runs the scenario requested from vacancy-sync, by connector. */
  runs: { atsA?: string; atsB?: string };
  log(line: string): void;
  /** A fact for the scenario's row in the table (e.g. how many armed faults fired). */
  note(line: string): void;
}

/** One fault of a scenario: injected when `at` of the burst's effects have settled. */
export interface FaultStep {
  /** As the table names it, e.g. "kill -9 candidate-sync". */
  label: string;
  /** Share of the expectations settled before it starts (0 = at once). */
  at: number;
  /**
   * Injects the fault and resolves once it is over, with the moment it ended when that was earlier (a
   * kill ends when the restart is issued; the restarted process's boot is part of the recovery).
   */
  inject(context: FaultContext): Promise<number | void>;
}

/** Between a kill -9 and the restart: long enough for the other replica to take the orphaned messages. */
const DOWN_MS = 2_000;

/** kill -9 of one replica of `service`, chosen by the seed, then its restart. */
export function killAndRestart(service: ServiceName, at: number): FaultStep {
  return {
    label: `kill -9 ${service}`,
    at,
    async inject({ stack, random, log }) {
      const replica = random.pick(stack.replicasOf(service).filter((r) => r.alive));
      return killThenRestart(stack, replica, log);
    },
  };
}

/** Resolves with the moment the restart was issued, once the restarted process is ready. */
async function killThenRestart(
  stack: ChaosStack,
  replica: Replica,
  log: (line: string) => void,
): Promise<number> {
  log(`kill -9 ${replica.service} #${replica.index} (pid ${replica.process.child.pid})`);
  await stack.kill(replica);
  await sleep(DOWN_MS);
  const restartedAt = Date.now();
  await stack.restart(replica);
  log(
    `${replica.service} #${replica.index} ready again after ${((Date.now() - restartedAt) / 1000).toFixed(1)} s ` +
      `(pid ${replica.process.child.pid})`,
  );
  return restartedAt;
}

/**
 * kill -9 of the vacancy-sync process that holds the ATS-A run's lease, once the run has published part of
 * its vacancies; another process must take the run over from its cursor when the lease lapses.
 */
export function killVacancySyncMidRun(): FaultStep {
  return {
    label: 'kill -9 vacancy-sync mid-run',
    at: 0,
    async inject({ stack, runs, log }) {
      const runId = runs.atsA;
      if (!runId) throw new Error('no ATS-A run to interrupt');
      const started = Date.now();
      // Mid-run: some vacancies published, the run not finished.
      for (;;) {
        const published = stack.recorder
          .ofType(RoutingKey.VacancyUpserted)
          .filter((e) => e.data.connectorId === stack.connectors.atsA).length;
        const finished = stack.recorder.ofType(RoutingKey.RunCompleted).some((e) => e.data.runId === runId);
        if (finished) throw new Error('the ATS-A run finished before it could be interrupted');
        if (published >= 100) break;
        if (Date.now() - started > 120_000) throw new Error('the ATS-A run never got going');
        await sleep(50);
      }
      const [row] = await stack.query<{ lease_owner: string | null }>(
        'SELECT lease_owner FROM sync_connector WHERE connector_id = $1',
        [stack.connectors.atsA],
      );
      // lease_owner is "host:pid:nonce".
      const pid = Number(row?.lease_owner?.split(':')[1]);
      const owner = stack.replicasOf('vacancy-sync').find((r) => r.alive && r.process.child.pid === pid);
      if (!owner) throw new Error(`no running vacancy-sync holds the run's lease (${row?.lease_owner})`);
      return killThenRestart(stack, owner, log);
    },
  };
}

const isRefresh = (method: string, path: string) =>
  method === 'POST' && path.startsWith('/oauth/token?') && path.includes('grant_type=refresh_token');
const isRestLogin = (method: string, path: string) =>
  method === 'POST' && path.startsWith('/rest-services/login');

/**
 * kill -9 of the auth-gateway process in the middle of renewing ATS-B access, at one of two moments:
 * `refresh` (its in-flight marker stored, the single-use refresh token on its way to ATS-B, which never
 * gets it) or `login` (the refresh done and the rotated token stored, the REST login on its way). The
 * process is found by the OAuth address only it uses.
 */
export function killAuthGatewayMidRefresh(moment: 'refresh' | 'login', at: number): FaultStep {
  return {
    label: `kill -9 auth-gateway mid-${moment === 'refresh' ? 'refresh' : 'login after a refresh'}`,
    at,
    async inject({ stack, log }) {
      const match = moment === 'refresh' ? isRefresh : isRestLogin;
      const proxies = stack.proxies.atsBAuth;
      const caught = await Promise.race([
        ...proxies.map((proxy, index) => proxy.hold(match).then((held) => ({ held, index }))),
        sleep(120_000).then(() => undefined),
      ]);
      for (const proxy of proxies) proxy.clearHolds();
      if (!caught) throw new Error(`no ATS-B ${moment} within 2 minutes`);
      const replica = stack.replicasOf('auth-gateway').find((r) => r.index === caught.index);
      if (!replica) throw new Error(`no auth-gateway #${caught.index}`);
      log(`caught ${caught.held.method} ${redact(caught.held)} from auth-gateway #${caught.index}`);
      await stack.kill(replica);
      // The request died with its process: ATS-B never receives it.
      caught.held.drop();
      await sleep(DOWN_MS);
      const restartedAt = Date.now();
      await stack.restart(replica);
      log(`auth-gateway #${replica.index} ready again (pid ${replica.process.child.pid})`);
      return restartedAt;
    },
  };
}

function redact(held: HeldRequest): string {
  return held.path.split('?')[0];
}

/** RabbitMQ stopped and started (durable queues and persisted messages must survive it). */
export function restartRabbitMq(at: number): FaultStep {
  return {
    label: 'RabbitMQ restart',
    at,
    async inject({ log }) {
      log('restarting RabbitMQ');
      await restartBroker();
      log('RabbitMQ is back');
    },
  };
}

/** Postgres restarted (every connection of every service dropped). POSTGRES_RESTART_COMMAND overrides. */
export function restartPostgres(at: number): FaultStep {
  return {
    label: 'Postgres restart',
    at,
    async inject({ log }) {
      log('restarting Postgres');
      const command = process.env.POSTGRES_RESTART_COMMAND;
      if (command) {
        await run('sh', ['-c', command], { timeout: 120_000 });
      } else {
        const [version] = readdirSync('/etc/postgresql');
        await run('pg_ctlcluster', ['--skip-systemctl-redirect', version, 'main', 'restart'], {
          timeout: 120_000,
        });
      }
      log('Postgres is back');
    },
  };
}

export type StormKind = '5xx' | '429' | 'slow' | 'slower-than-timeout';

/** Both ATSs misbehave for `durationMs`: 5xx on most calls, 429 on every call, or answers taking seconds. */
export function atsStorm(kind: StormKind, at: number, durationMs: number): FaultStep {
  const labels: Record<StormKind, string> = {
    '5xx': '5xx storm (60% of calls)',
    '429': '429 storm (every call)',
    slow: 'answers taking 1–3.5 s',
    'slower-than-timeout': 'answers taking 4–9 s (the client gives up at 6 s; the ATS still does the work)',
  };
  return {
    label: `ATS ${labels[kind]}, ${durationMs / 1000} s`,
    at,
    async inject({ stack, log }) {
      switch (kind) {
        case '5xx':
          stack.atsA.state.setFaults({
            errorRate: Object.fromEntries(Object.keys(ENDPOINT_SCOPES).map((k) => [k, 0.6])),
            errorStatus: 503,
          });
          stack.atsB.state.setFaults({ errorRate: { '*': 0.6 }, errorStatus: 503 });
          break;
        case '429':
          stack.atsA.state.setFaults({ force429: true });
          stack.atsB.state.setFaults({ force429: true });
          break;
        case 'slow':
          stack.atsA.state.setFaults({ latencyMs: 1_000, jitterMs: 2_500 });
          stack.atsB.state.setFaults({ latencyMs: 1_000, jitterMs: 2_500 });
          break;
        case 'slower-than-timeout':
          stack.atsA.state.setFaults({ latencyMs: 4_000, jitterMs: 5_000 });
          stack.atsB.state.setFaults({ latencyMs: 4_000, jitterMs: 5_000 });
          break;
      }
      log(`ATS ${kind} storm on`);
      await sleep(durationMs);
      stack.atsA.state.setFaults({});
      stack.atsB.state.clearFaults();
      log(`ATS ${kind} storm over`);
    },
  };
}

/**
 * The next `count` writes of each kind are applied by the ATS and then never answered (the connection is
 * held past the client's timeout): the worker cannot know whether its write happened. Over when every
 * armed timeout has fired, or after `maxMs` (a burst may hold fewer writes of a kind).
 */
export function timeoutAfterWrite(count: number, at: number, maxMs = 60_000): FaultStep {
  return {
    label: `timeout after the write (${count} per kind of write)`,
    at,
    async inject({ stack, log, note }) {
      const writes = (keys: string[]) => Object.fromEntries(keys.map((k) => [k, count]));
      const documents = stack.options.workers.includes('document-service');
      stack.atsA.state.setFaults({
        timeoutAfterWrite: writes([
          'POST /api/candidates',
          'PATCH /api/candidates/{id}',
          'POST /api/applications',
          ...(documents ? ['POST /api/candidates/{id}/upload/cv'] : []),
        ]),
        timeoutMs: 10_000,
      });
      stack.atsB.state.setFaults({
        timeoutAfterWrite: writes([
          'PUT entity/Candidate',
          'POST entity/Candidate',
          ...(documents ? ['PUT file/Candidate'] : []),
        ]),
        timeoutMs: 10_000,
      });
      log('timeouts after the write armed');
      const deadline = Date.now() + maxMs;
      const left = () =>
        [
          ...Object.values(stack.atsA.state.faultConfig().timeoutAfterWrite),
          ...Object.values(stack.atsB.state.faults().timeoutAfterWrite),
        ].reduce((sum, n) => sum + n, 0);
      const armed = left();
      while (left() > 0 && Date.now() < deadline) await sleep(100);
      const fired = armed - left();
      stack.atsA.state.setFaults({});
      stack.atsB.state.clearFaults();
      log(`timeouts after the write over: ${fired} of ${armed} fired`);
      note(`${fired} writes applied and never answered`);
    },
  };
}

/** A share of ATS connections reset, before the request reaches the ATS or after it answered. */
export function connectionResets(rate: number, at: number, durationMs: number): FaultStep {
  return {
    label: `ATS connection resets (${rate * 100}% of requests), ${durationMs / 1000} s`,
    at,
    async inject({ stack, log }) {
      // Not on ATS-B's OAuth address: a refresh whose answer is lost ends the authorization (ATS-B's rule).
      const proxies = [stack.proxies.atsA, stack.proxies.atsBData];
      for (const proxy of proxies) proxy.resetRate = rate;
      log('connection resets on');
      await sleep(durationMs);
      for (const proxy of proxies) proxy.resetRate = 0;
      const stats = proxies.map((p) => p.stats);
      log(
        `connection resets over: ${stats.reduce((s, p) => s + p.resetBeforeForward, 0)} before forwarding, ` +
          `${stats.reduce((s, p) => s + p.resetAfterAnswer, 0)} after the answer`,
      );
    },
  };
}
