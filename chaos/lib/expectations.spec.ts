import { RoutingKey } from '@connector/contracts';
import type { EventRecorder } from './event-recorder';
import {
  atsAApplicationExpectation,
  candidateExpectation,
  documentExpectation,
  invalidEventExpectation,
  runExpectation,
  unsupportedExpectation,
  vacancyExpectation,
} from './expectations';
import type { World } from './world';

/** A world as observed, with only what each test sets. */
function world(parts: {
  atsA?: Partial<World['atsA']>;
  atsB?: Partial<World['atsB']>;
  deadLetters?: string[];
  published?: Array<{ type: string; source: string; connectorId?: string }>;
  vacancies?: string[];
  runs?: Record<string, string>;
}): World {
  const recorder = {
    count: (type: string, source: string, connectorId?: string) =>
      (parts.published ?? []).filter(
        (p) => p.type === type && p.source === source && (!connectorId || p.connectorId === connectorId),
      ).length,
  } as unknown as EventRecorder;
  return {
    connectors: { atsA: 'conn-a', atsB: 'conn-b' },
    recorder,
    atsA: {
      candidatesByEmail: new Map(),
      applications: new Map(),
      filesBySha: new Map(),
      ...parts.atsA,
    },
    atsB: { candidatesByEmail: new Map(), filesByExternalId: new Map(), ...parts.atsB },
    deadLetters: new Map(
      (parts.deadLetters ?? []).map((id) => [
        id,
        { messageId: id, queue: 'q', reasons: ['data.email: required'], retryable: false },
      ]),
    ),
    vacanciesPublished: new Map((parts.vacancies ?? []).map((v) => [v, 1])),
    runs: new Map(Object.entries(parts.runs ?? {})),
  };
}

describe('expectations', () => {
  const candidate = candidateExpectation({
    label: 'c1 in ATS-A',
    ats: 'atsA',
    email: 'c1@x.test',
    newestMobile: '+2',
    eventIds: ['created', 'updated'],
  });

  it('a candidate is done once, with the newest data; pending without it; a second record is a duplicate', () => {
    const one = new Map([['c1@x.test', [{ id: 1, mobile: '+2' }]]]);
    expect(candidate.check(world({ atsA: { candidatesByEmail: one } }))).toEqual({
      state: 'done',
      duplicates: 0,
    });
    const stale = new Map([['c1@x.test', [{ id: 1, mobile: '+1' }]]]);
    expect(candidate.check(world({ atsA: { candidatesByEmail: stale } })).state).toBe('pending');
    expect(candidate.check(world({})).state).toBe('pending');
    const two = new Map([
      [
        'c1@x.test',
        [
          { id: 1, mobile: '+2' },
          { id: 2, mobile: '+1' },
        ],
      ],
    ]);
    expect(candidate.check(world({ atsA: { candidatesByEmail: two } }))).toEqual({
      state: 'done',
      duplicates: 1,
    });
  });

  it('an effect not in the ATS is failed, not lost, when one of its events is in the failure log', () => {
    expect(candidate.check(world({ deadLetters: ['updated'] })).state).toBe('failed');
    expect(candidate.check(world({ deadLetters: ['another'] })).state).toBe('pending');
  });

  it('counts ATS-A applications over every record of the candidate', () => {
    const application = atsAApplicationExpectation({
      label: 'a1',
      email: 'c1@x.test',
      vacancyId: 7,
      eventIds: ['submitted'],
    });
    const candidates = new Map([
      [
        'c1@x.test',
        [
          { id: 1, mobile: null },
          { id: 2, mobile: null },
        ],
      ],
    ]);
    expect(application.check(world({ atsA: { candidatesByEmail: candidates } })).state).toBe('pending');
    const applications = new Map([
      ['1:7', 1],
      ['2:7', 1],
    ]);
    expect(application.check(world({ atsA: { candidatesByEmail: candidates, applications } }))).toEqual({
      state: 'done',
      duplicates: 1,
    });
  });

  it('an application to ATS-B is done by operation.unsupported for that connector', () => {
    const unsupported = unsupportedExpectation({ label: 'a1 on B', eventId: 'submitted' });
    const type = RoutingKey.OperationUnsupported;
    expect(
      unsupported.check(world({ published: [{ type, source: 'submitted', connectorId: 'conn-a' }] })).state,
    ).toBe('pending');
    expect(
      unsupported.check(world({ published: [{ type, source: 'submitted', connectorId: 'conn-b' }] })).state,
    ).toBe('done');
  });

  it('documents are counted by content in ATS-A and by external id in ATS-B', () => {
    const inA = documentExpectation({
      label: 'd',
      ats: 'atsA',
      documentId: 'd1',
      sha256: 'abc',
      eventId: 'e',
    });
    const inB = documentExpectation({
      label: 'd',
      ats: 'atsB',
      documentId: 'd1',
      sha256: 'abc',
      eventId: 'e',
    });
    const observed = world({
      atsA: { filesBySha: new Map([['abc', 3]]) },
      atsB: { filesByExternalId: new Map([['d1', 1]]) },
    });
    expect(inA.check(observed)).toEqual({ state: 'done', duplicates: 2 });
    expect(inB.check(observed)).toEqual({ state: 'done', duplicates: 0 });
  });

  it('an invalid event is done only when both in the failure log and reported as operation.failed', () => {
    const invalid = invalidEventExpectation({ label: 'bad', eventId: 'bad' });
    expect(invalid.check(world({ deadLetters: ['bad'] })).state).toBe('pending');
    expect(
      invalid.check(world({ published: [{ type: RoutingKey.OperationFailed, source: 'bad' }] })).state,
    ).toBe('pending');
    expect(
      invalid.check(
        world({ deadLetters: ['bad'], published: [{ type: RoutingKey.OperationFailed, source: 'bad' }] }),
      ).state,
    ).toBe('done');
  });

  it('a vacancy is done once published; a failed run fails its run and unpublished vacancies', () => {
    const run = runExpectation({ label: 'run', runId: 'r1' });
    const vacancy = vacancyExpectation({ label: 'v', connectorId: 'conn-a', externalId: '9', runId: 'r1' });
    expect(vacancy.check(world({ vacancies: ['conn-a:9'] })).state).toBe('done');
    expect(vacancy.check(world({})).state).toBe('pending');
    expect(run.check(world({ runs: { r1: 'succeeded' } })).state).toBe('done');
    expect(run.check(world({ runs: { r1: 'failed' } })).state).toBe('failed');
    expect(vacancy.check(world({ runs: { r1: 'failed' } })).state).toBe('failed');
  });
});
