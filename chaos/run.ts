/**
 * The chaos suite: each scenario a burst of real work through the running services with faults injected
 * mid-flight, then the invariants checked from outside. Exits 1 when any effect is lost or duplicated, or
 * another invariant breaks.
 *
 *   npm run chaos                                   # every scenario, then the table into docs/reliability.md
 *   npm run chaos -- --only=kill-candidate-sync     # some scenarios (comma list)
 *   npm run chaos -- --skip-restarts                # not the RabbitMQ and Postgres restarts (shared machines)
 *   npm run chaos -- --seed=7 --events=400 --no-docs --log-level=info --list
 *
 * Needs Postgres and RabbitMQ (DATABASE_URL, RABBITMQ_URL as for the tests) and rabbitmqctl for the vhosts.
 * Process logs of each scenario: tmp/chaos/<scenario>-<seed>/.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { Logger } from '@nestjs/common';
import { WORKSPACE_ROOT } from '@connector/testing';
import {
  formatTable,
  harnessFailure,
  runScenario,
  SCENARIOS,
  type ScenarioResult,
  WORKERS,
  type WorkerName,
  writeDocs,
} from './index';

interface CliOptions {
  seed: number;
  events: number;
  only?: string[];
  skipRestarts: boolean;
  docs: boolean;
  logLevel: string;
  workers: WorkerName[];
  list: boolean;
}

function parseArgs(argv: string[]): CliOptions {
  const options: CliOptions = {
    seed: 1,
    events: 300,
    skipRestarts: false,
    docs: true,
    logLevel: 'warn',
    workers: [...WORKERS],
    list: false,
  };
  for (const arg of argv) {
    const [flag, value = ''] = arg.split('=', 2);
    switch (flag) {
      case '--seed':
        options.seed = positiveInteger(flag, value);
        break;
      case '--events':
        options.events = positiveInteger(flag, value);
        break;
      case '--only':
        options.only = value.split(',').filter(Boolean);
        break;
      case '--skip-restarts':
        options.skipRestarts = true;
        break;
      case '--no-docs':
        options.docs = false;
        break;
      case '--log-level':
        options.logLevel = value;
        break;
      case '--workers':
        options.workers = value.split(',').filter(Boolean) as WorkerName[];
        for (const w of options.workers)
          if (!WORKERS.includes(w))
            throw new Error(`--workers: no worker ${w} (known: ${WORKERS.join(', ')})`);
        break;
      case '--list':
        options.list = true;
        break;
      default:
        throw new Error(`unknown argument ${arg}`);
    }
  }
  for (const name of options.only ?? [])
    if (!SCENARIOS.some((s) => s.name === name))
      throw new Error(`--only: no scenario ${name} (known: ${SCENARIOS.map((s) => s.name).join(', ')})`);
  return options;
}

function positiveInteger(flag: string, value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n <= 0) throw new Error(`${flag} must be a positive integer`);
  return n;
}

async function main(): Promise<number> {
  const options = parseArgs(process.argv.slice(2));
  if (options.list) {
    for (const s of SCENARIOS)
      process.stdout.write(
        `${s.name}${s.restartsSharedInfrastructure ? ' (restart)' : ''}: ${s.description}\n`,
      );
    return 0;
  }
  // The harness's own broker connections: only their warnings.
  Logger.overrideLogger(['error', 'warn']);
  const chosen = SCENARIOS.filter(
    (s) =>
      (!options.only || options.only.includes(s.name)) &&
      !(options.skipRestarts && s.restartsSharedInfrastructure),
  );
  const results: ScenarioResult[] = [];
  for (const scenario of chosen) {
    const started = Date.now();
    let result: ScenarioResult;
    try {
      result = await runScenario(scenario, {
        seed: options.seed,
        events: options.events,
        workers: options.workers,
        logLevel: options.logLevel,
      });
    } catch (error) {
      process.stderr.write(`[${scenario.name}] ${(error as Error).stack ?? String(error)}\n`);
      result = harnessFailure(scenario, options.seed, error);
    }
    results.push(result);
    const verdict = result.passed ? 'passed' : `FAILED: ${result.violations.join('; ')}`;
    process.stdout.write(
      `[${scenario.name}] ${verdict} in ${((Date.now() - started) / 1000).toFixed(0)} s\n`,
    );
    for (const label of [...result.lostLabels, ...result.duplicatedLabels].slice(0, 20))
      process.stdout.write(`  ${label}\n`);
    if (!result.passed) process.stdout.write(`  process logs: ${result.logDir}\n`);
  }
  process.stdout.write(`\n${formatTable(results)}\n`);
  if (options.docs && results.length > 0) {
    const path = join(WORKSPACE_ROOT, 'docs', 'reliability.md');
    writeDocs(path, results, SCENARIOS);
    // Formatted as `npm run lint` checks it (prettier pads the table's cells).
    spawnSync(join(WORKSPACE_ROOT, 'node_modules', '.bin', 'prettier'), ['--write', path], {
      stdio: 'ignore',
    });
    process.stdout.write(`\nwritten into ${path}\n`);
  }
  return results.every((r) => r.passed) ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`${(error as Error).stack ?? String(error)}\n`);
    process.exit(2);
  },
);
