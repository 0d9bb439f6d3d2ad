/**
 * Where a service's CPU went, from a V8 profile of it under the bench: each sample is given to the first of
 * the groups below met walking up its stack from the leaf (a socket write under pg counts as Postgres),
 * in ms per event. `(idle)` is left out of the groups and shown on its own.
 *
 *   SERVICE_NODE_ARGS="--cpu-prof --cpu-prof-dir=/tmp/prof" BENCH_SUITE=candidate-sync \
 *     node -r @swc-node/register bench/candidate-pipeline/candidate-pipeline.bench.ts
 *   node -r @swc-node/register bench/candidate-pipeline/profile-summary.ts /tmp/prof/<candidate-sync>.cpuprofile \
 *     <events> [<seconds of start-up to skip>]
 *
 * Socket writes (`writev`, `writeBuffer`) are sampled on the wall clock: a write to Postgres on loopback that
 * wakes the backend is often descheduled inside the call, so that share is partly waiting, not CPU (compare
 * user and system CPU from /proc).
 */
import { readFileSync } from 'node:fs';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string };
  children?: number[];
}

interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

const GROUPS: Array<[string, (frame: ProfileNode['callFrame']) => boolean]> = [
  ['garbage collection', (f) => f.functionName === '(garbage collector)'],
  [
    'validation (class-validator, class-transformer)',
    (f) => /class-validator|class-transformer|node_modules\/validator\/|validate-message/.test(f.url),
  ],
  ['field and content hashes', (f) => /field-diff|crypto\/hash/.test(f.url)],
  [
    'Postgres (pg, TypeORM, socket writes)',
    (f) => /node_modules\/(pg|pg-protocol|pg-pool|typeorm)\//.test(f.url),
  ],
  ['HTTP to the ATS (undici, our client)', (f) => /undici|libs\/ats\/http/.test(f.url)],
  [
    'RabbitMQ (amqplib, deliveries, publish)',
    (f) =>
      /amqplib|amqp-connection-manager|rabbitmq\.server|message-publisher|rabbitmq\.connection/.test(f.url),
  ],
  ['metrics', (f) => /prom-client|message-observer|ats-metrics/.test(f.url)],
  ['log context (AsyncLocalStorage)', (f) => /log-context|async_hooks|async_local/.test(f.url)],
  ['Nest, rxjs', (f) => /@nestjs|rxjs/.test(f.url)],
  ['leases, exactly-once, rate limiter', (f) => /exactly-once|persistence\/src|rate-limiter/.test(f.url)],
  ['our other code', (f) => /\/(apps|libs)\//.test(f.url)],
];

function main(): void {
  const [file, eventsArg, skipArg] = process.argv.slice(2);
  if (!file || !eventsArg)
    throw new Error('usage: profile-summary.ts <file.cpuprofile> <events> [skip seconds]');
  const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
  const events = Number(eventsArg);
  const skipUs = Number(skipArg ?? 0) * 1e6;
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
  const parents = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parents.set(child, node.id);

  const totals = new Map<string, number>();
  let elapsed = 0;
  for (const [i, sample] of profile.samples.entries()) {
    elapsed += profile.timeDeltas[i];
    if (elapsed < skipUs) continue;
    let group = 'the rest (node internals, promises, timers)';
    if (nodes.get(sample)?.callFrame.functionName === '(idle)') group = '(idle)';
    else {
      for (let id: number | undefined = sample; id !== undefined; id = parents.get(id)) {
        const frame = nodes.get(id)?.callFrame;
        const found = frame && GROUPS.find(([, matches]) => matches(frame));
        if (found) {
          group = found[0];
          break;
        }
      }
    }
    totals.set(group, (totals.get(group) ?? 0) + profile.timeDeltas[i]);
  }
  const busy = [...totals].filter(([group]) => group !== '(idle)').reduce((sum, [, us]) => sum + us, 0);
  for (const [group, us] of [...totals].sort((a, b) => b[1] - a[1])) {
    process.stdout.write(`${(us / 1000 / events).toFixed(3).padStart(7)} ms/event  ${group}\n`);
  }
  process.stdout.write(`${(busy / 1000 / events).toFixed(3).padStart(7)} ms/event  total, idle left out\n`);
}

main();
