/**
 * A separate OS process for the integration test: races other processes for the same Postgres bucket and
 * reports what it got. Run with `node -r @swc-node/register`, DATABASE_URL in the environment.
 */
import { Pool } from 'pg';
import { PostgresRateLimiter, RateLimitExceededError } from '../index';
import { GO_MESSAGE, type AcquireWorkerMessage, type AcquireWorkerTask } from './acquire-worker.protocol';

async function main(): Promise<void> {
  const task = JSON.parse(process.argv[2] ?? '') as AcquireWorkerTask;
  const pool = new Pool({ connectionString: process.env.DATABASE_URL, max: Math.min(task.attempts, 5) });
  const limiter = new PostgresRateLimiter(pool);
  limiter.configure(task.key, task.config);
  await pool.query('SELECT 1'); // connect before the start signal, so connecting is not part of the race
  await new Promise<void>((resolve, reject) => {
    process.on('message', (message) => message === GO_MESSAGE && resolve());
    send({ type: 'ready' }).catch(reject);
  });

  const outcomes = await Promise.allSettled(
    Array.from({ length: task.attempts }, () =>
      limiter.acquire(task.key, task.cost, { priority: task.priority, maxWaitMs: task.maxWaitMs }),
    ),
  );
  const result: Extract<AcquireWorkerMessage, { type: 'result' }> = {
    type: 'result',
    granted: 0,
    waitedMs: [],
    refused: [],
    errors: [],
  };
  for (const outcome of outcomes) {
    if (outcome.status === 'fulfilled') {
      result.granted++;
      result.waitedMs.push(outcome.value.waitedMs);
    } else if (outcome.reason instanceof RateLimitExceededError) {
      result.refused.push({ code: outcome.reason.code, retryAt: outcome.reason.retryAt.toISOString() });
    } else {
      result.errors.push(String(outcome.reason));
    }
  }
  await send(result);
  await pool.end();
}

/** Resolves once the message is handed to the IPC channel, so disconnecting after it loses nothing. */
function send(message: AcquireWorkerMessage): Promise<void> {
  return new Promise((resolve, reject) => {
    if (!process.send) return reject(new Error('acquire-worker must be started with fork()'));
    process.send(message, undefined, {}, (error) => (error ? reject(error) : resolve()));
  });
}

main().then(
  () => process.disconnect?.(),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
