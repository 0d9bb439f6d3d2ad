/**
 * The fleet bench's event-feed measures (issue 28): while the window runs, job orders change in half of the
 * ATS-B customers' systems (the "busy" ones) and the bench times each change to the `vacancy.upserted` that
 * carries it; the other half stay quiet, and their ATS calls per event poll show what an idle connector costs.
 */
import { connect, type Channel, type ChannelModel } from 'amqplib';
import { Exchange, RoutingKey } from '@connector/contracts';
import type { RunningAtsBSandbox } from '@connector/ats-b-sandbox';
import { type Distribution, distribution } from './fleet-stats';

export interface EventFeedTenant {
  tenant: string;
  connectorId: string;
}

export interface EventFeedResult {
  changes: number;
  /** Seconds from a change in the ATS to its `vacancy.upserted`. */
  lag: Distribution;
  /** Changes no `vacancy.upserted` carried by the end of the grace time. */
  unseen: number;
  quietConnectors: number;
  /** Event polls the quiet connectors were due in the window (connectors × window ÷ poll period). */
  quietPollsDue: number;
  /** What the quiet connectors' ATS systems answered in the window, in all and of event reads. */
  quietCalls: number;
  quietEventReads: number;
}

interface Change {
  connectorId: string;
  externalId: string;
  title: string;
  at: number;
  seenAt?: number;
}

/** Taps `vacancy.upserted` on the row's vhost. */
async function tapUpserts(
  rabbitUrl: string,
  onUpsert: (data: { connectorId: string; externalId: string; title: string }, at: number) => void,
): Promise<{ close(): Promise<void> }> {
  const connection: ChannelModel = await connect(rabbitUrl);
  const channel: Channel = await connection.createChannel();
  const { queue } = await channel.assertQueue('', { exclusive: true, autoDelete: true });
  await channel.bindQueue(queue, Exchange.ConnectorEvents, RoutingKey.VacancyUpserted);
  await channel.consume(
    queue,
    (message) => {
      if (!message) return;
      const envelope = JSON.parse(message.content.toString()) as {
        data: { connectorId: string; externalId: string; title: string };
      };
      onUpsert(envelope.data, Date.now());
    },
    { noAck: true },
  );
  return {
    close: async () => {
      await channel.close().catch(() => undefined);
      await connection.close().catch(() => undefined);
    },
  };
}

/**
 * Changes `changes` job orders spread over `[from, from + spreadMs)` in the busy tenants (a new job, or a
 * retitle of one added before), waits for each to be published (at most `graceMs` after the last change),
 * and counts the quiet tenants' calls over `[from, windowEnd)`.
 */
export async function probeEventFeed(input: {
  sandbox: RunningAtsBSandbox;
  rabbitUrl: string;
  busy: EventFeedTenant[];
  quiet: EventFeedTenant[];
  changes: number;
  spreadMs: number;
  windowMs: number;
  pollSeconds: number;
  graceMs: number;
}): Promise<EventFeedResult> {
  const { sandbox, busy, quiet } = input;
  const pending = new Map<string, Change>();
  const key = (connectorId: string, externalId: string, title: string) =>
    `${connectorId}\n${externalId}\n${title}`;
  const tap = await tapUpserts(input.rabbitUrl, (data, at) => {
    const change = pending.get(key(data.connectorId, data.externalId, data.title));
    if (change && change.seenAt === undefined) change.seenAt = at;
  });
  const stateOf = (tenant: string) => {
    const state = sandbox.tenants.get(tenant)?.state;
    if (!state) throw new Error(`ATS-B sandbox: no tenant ${tenant}`);
    return state;
  };
  const callsOf = (tenant: string) => {
    const counts = stateOf(tenant).callCounts();
    return {
      total: Object.values(counts).reduce((a, b) => a + b, 0),
      eventReads: counts['GET event/subscription'] ?? 0,
    };
  };
  try {
    const quietBefore = quiet.map((t) => callsOf(t.tenant));
    const from = Date.now();
    const added = new Map<string, number[]>();
    const changes: Change[] = [];
    for (let i = 0; i < input.changes && busy.length > 0; i++) {
      const dueAt = from + (i * input.spreadMs) / input.changes;
      if (dueAt > Date.now()) await new Promise((resolve) => setTimeout(resolve, dueAt - Date.now()));
      const target = busy[i % busy.length];
      const jobs = stateOf(target.tenant).jobs;
      const mine = added.get(target.tenant) ?? [];
      const title = `Fleet change ${i}`;
      // Every other change retitles a job this bench added; the rest add a new one.
      const id =
        mine.length > 0 && i % 2 === 1
          ? jobs.update(mine[i % mine.length], { title }).id
          : jobs.add({ title }).id;
      if (!mine.includes(id)) added.set(target.tenant, [...mine, id]);
      const change: Change = {
        connectorId: target.connectorId,
        externalId: String(id),
        title,
        at: Date.now(),
      };
      changes.push(change);
      pending.set(key(change.connectorId, change.externalId, change.title), change);
    }
    const graceUntil = Date.now() + input.graceMs;
    while (Date.now() < graceUntil && changes.some((c) => c.seenAt === undefined))
      await new Promise((resolve) => setTimeout(resolve, 500));
    const windowLeft = from + input.windowMs - Date.now();
    if (windowLeft > 0) await new Promise((resolve) => setTimeout(resolve, windowLeft));
    const windowSeconds = (Date.now() - from) / 1000;
    const quietAfter = quiet.map((t) => callsOf(t.tenant));
    const seen = changes.filter((c) => c.seenAt !== undefined);
    return {
      changes: changes.length,
      lag: distribution(seen.map((c) => ((c.seenAt ?? 0) - c.at) / 1000)),
      unseen: changes.length - seen.length,
      quietConnectors: quiet.length,
      quietPollsDue: Math.floor((quiet.length * windowSeconds) / input.pollSeconds),
      quietCalls: quietAfter.reduce((sum, c, i) => sum + c.total - quietBefore[i].total, 0),
      quietEventReads: quietAfter.reduce((sum, c, i) => sum + c.eventReads - quietBefore[i].eventReads, 0),
    };
  } finally {
    await tap.close();
  }
}
