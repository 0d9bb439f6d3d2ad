import { setTimeout as sleep } from 'node:timers/promises';
import { WORKERS, type StackOptions, type WorkerName } from './chaos-stack';
import {
  atsStorm,
  connectionResets,
  type FaultContext,
  type FaultStep,
  killAndRestart,
  killAuthGatewayMidRefresh,
  killVacancySyncMidRun,
  restartPostgres,
  restartRabbitMq,
  timeoutAfterWrite,
} from './faults';

export interface Scenario {
  name: string;
  /** One sentence for docs/reliability.md. */
  description: string;
  /** Restarts the machine's shared RabbitMQ or Postgres: left out by `--skip-restarts`. */
  restartsSharedInfrastructure?: boolean;
  /** The workers the scenario cannot do without (a short run, as in CI, starts only these). */
  needs: readonly WorkerName[];
  stack?: Partial<Pick<StackOptions, 'atsA' | 'atsB'>>;
  faults: FaultStep[];
  /** Pressure kept up while the faults run; returns how to stop it. */
  background?(context: FaultContext): () => Promise<void>;
}

/** Every ATS-B session dies every `everyMs`: each renewal spends a single-use refresh token. */
function expireAtsBSessions(everyMs: number) {
  return ({ stack }: FaultContext) => {
    let running = true;
    const loop = (async () => {
      while (running) {
        stack.atsB.state.expireSessions();
        await sleep(everyMs);
      }
    })();
    return async () => {
      running = false;
      await loop;
    };
  };
}

export const SCENARIOS: readonly Scenario[] = [
  {
    name: 'baseline',
    description: 'No fault: the control run, to show the harness itself finds nothing.',
    needs: WORKERS,
    faults: [],
  },
  {
    name: 'kill-candidate-sync',
    description:
      'kill -9 of a candidate-sync replica at 20% and another at 55% of the burst, each restarted.',
    needs: ['candidate-sync'],
    faults: [killAndRestart('candidate-sync', 0.2), killAndRestart('candidate-sync', 0.55)],
  },
  {
    name: 'kill-document-service',
    description:
      'kill -9 of a document-service replica at 25% and another at 60% of the burst, each restarted.',
    needs: ['candidate-sync', 'document-service'],
    faults: [killAndRestart('document-service', 0.25), killAndRestart('document-service', 0.6)],
  },
  {
    name: 'kill-vacancy-sync',
    description:
      'kill -9 of the vacancy-sync replica holding an ATS-A run (1 000 vacancies, 150 ms per call) ' +
      'after 100 vacancies were published; restarted.',
    needs: ['vacancy-sync'],
    stack: { atsA: { vacancies: 1_000, latencyMs: 150 } },
    faults: [killVacancySyncMidRun()],
  },
  {
    name: 'kill-auth-gateway',
    description:
      'ATS-B sessions expire every 1.5 s (every renewal spends a refresh token); kill -9 of the ' +
      'auth-gateway replica whose refresh is on its way to ATS-B, then of one whose login after a ' +
      'refresh is; each restarted.',
    needs: ['candidate-sync'],
    stack: { atsB: { jobs: 200, accessTokenTtlSeconds: 30 } },
    faults: [killAuthGatewayMidRefresh('refresh', 0.15), killAuthGatewayMidRefresh('login', 0.45)],
    background: expireAtsBSessions(1_500),
  },
  {
    name: 'rabbitmq-restart',
    description: 'RabbitMQ stopped and started at 30% of the burst (the platform keeps publishing).',
    restartsSharedInfrastructure: true,
    needs: WORKERS,
    faults: [restartRabbitMq(0.3)],
  },
  {
    name: 'postgres-restart',
    description: 'Postgres restarted at 30% of the burst: every connection of every service dropped.',
    restartsSharedInfrastructure: true,
    needs: WORKERS,
    faults: [restartPostgres(0.3)],
  },
  {
    name: 'ats-5xx-storm',
    description: 'Both ATSs answer 503 to 60% of all calls for 8 s from 20% of the burst.',
    needs: ['candidate-sync'],
    faults: [atsStorm('5xx', 0.2, 8_000)],
  },
  {
    name: 'ats-429-storm',
    description: 'Both ATSs answer 429 to every call for 8 s from 20% of the burst.',
    needs: ['candidate-sync'],
    faults: [atsStorm('429', 0.2, 8_000)],
  },
  {
    name: 'ats-timeout-after-write',
    description:
      'The next 5 writes of each kind (candidate create and update, application, upload) are applied by ' +
      'the ATS and never answered; the client gives up after 6 s.',
    needs: ['candidate-sync'],
    faults: [timeoutAfterWrite(5, 0.1)],
  },
  {
    name: 'ats-faults-mixed',
    description:
      'Two writes of each kind applied and never answered, then a 5xx storm (4 s), then a 429 storm (4 s): ' +
      'the short subset CI runs.',
    needs: ['candidate-sync'],
    faults: [timeoutAfterWrite(2, 0), atsStorm('5xx', 0.3, 4_000), atsStorm('429', 0.55, 4_000)],
  },
  {
    name: 'ats-slow-answers',
    description: 'Every ATS call takes 1–3.5 s for 10 s from 20% of the burst.',
    needs: ['candidate-sync'],
    faults: [atsStorm('slow', 0.2, 10_000)],
  },
  {
    name: 'ats-slower-than-timeout',
    description:
      'Every ATS call takes 4–9 s for 10 s from 20% of the burst: past the client’s 6-s timeout, and the ' +
      'ATS still applies a write the client gave up on.',
    needs: ['candidate-sync'],
    faults: [atsStorm('slower-than-timeout', 0.2, 10_000)],
  },
  {
    name: 'ats-connection-resets',
    description:
      '15% of ATS connections reset for 10 s, half before the request reaches the ATS, half after it ' +
      'answered (the write done, its answer lost).',
    needs: ['candidate-sync'],
    faults: [connectionResets(0.15, 0.1, 10_000)],
  },
];

export function scenarioNamed(name: string): Scenario {
  const scenario = SCENARIOS.find((s) => s.name === name);
  if (!scenario) throw new Error(`no scenario ${name} (known: ${SCENARIOS.map((s) => s.name).join(', ')})`);
  return scenario;
}
