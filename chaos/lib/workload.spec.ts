import { validateMessage } from '@connector/contracts';
import type { FileServer } from '@connector/testing';
import { SeededRandom } from './seeded-random';
import { buildBurst, type WorkloadOptions } from './workload';

const files: FileServer = {
  url: 'http://127.0.0.1:1',
  serve: () => 'http://127.0.0.1:1/files/x',
  close: async () => undefined,
};

const options: WorkloadOptions = {
  events: 300,
  accountId: 'acct_chaos',
  connectors: { atsA: 'conn-a', atsB: 'conn-b' },
  applications: true,
  documents: true,
  atsAVacancies: 50,
  atsBJobs: 20,
  files,
  tag: 'chaos1',
};

const parse = (body: Buffer) =>
  JSON.parse(body.toString()) as { id: string; type: string; occurredAt: string };

describe(buildBurst.name, () => {
  it('draws the same burst from the same seed, and another from another seed', () => {
    const a = buildBurst(new SeededRandom(7), options);
    const b = buildBurst(new SeededRandom(7), options);
    const c = buildBurst(new SeededRandom(8), options);
    expect(b.messages.map((m) => m.body.toString())).toEqual(a.messages.map((m) => m.body.toString()));
    expect(c.messages.map((m) => m.id)).not.toEqual(a.messages.map((m) => m.id));
  });

  it('holds about the events asked for, valid ones by the contract and a few invalid ones', () => {
    const burst = buildBurst(new SeededRandom(1), options);
    expect(burst.messages.length).toBeGreaterThanOrEqual(300);
    expect(burst.messages.length).toBeLessThan(310);
    const invalid = burst.messages.filter((m) => !validateMessage(m.body, m.type).ok);
    expect(invalid.length).toBe(burst.counts['invalid']);
    expect(invalid.length).toBeGreaterThan(0);
    expect(invalid.length).toBeLessThan(20);
    expect(new Set(burst.messages.map((m) => m.id)).size).toBe(burst.messages.length);
  });

  it('publishes a candidate before its update, application and document, in occurredAt order', () => {
    const events = buildBurst(new SeededRandom(3), options).messages.map((m) => parse(m.body));
    const times = events.map((e) => Date.parse(e.occurredAt));
    expect([...times].sort((x, y) => x - y)).toEqual(times);
    const firstOf = new Map<string, string>();
    for (const raw of buildBurst(new SeededRandom(3), options).messages) {
      const data = (JSON.parse(raw.body.toString()) as { data: { candidateId: string } }).data;
      if (!firstOf.has(data.candidateId)) firstOf.set(data.candidateId, raw.type);
    }
    expect(new Set(firstOf.values())).toEqual(new Set(['candidate.created']));
  });

  it('expects each candidate in both ATSs, and leaves documents out when asked', () => {
    const burst = buildBurst(new SeededRandom(4), { ...options, documents: false });
    expect(burst.counts['document.uploaded']).toBeUndefined();
    const candidates = burst.counts['candidate.created'];
    expect(burst.expectations.filter((e) => e.label.startsWith('candidate '))).toHaveLength(candidates * 2);
  });
});
