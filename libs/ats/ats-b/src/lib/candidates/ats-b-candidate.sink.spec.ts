import { FieldHasher, legacyHashOf, NOTHING_SENT, type SentState } from '@connector/ats-core';
import { AtsError } from '@connector/ats-http';
import type { CandidateDataDto } from '@connector/contracts';
import type { AtsBClient } from '../client/ats-b.client';
import { AtsBCandidateSink, rekeyLegacyChild } from './ats-b-candidate.sink';

describe(rekeyLegacyChild.name, () => {
  const hasher = new FieldHasher('k'.repeat(32));
  const entry = { companyName: 'Acme', title: 'Engineer', startDate: 0, endDate: null, comments: null };

  it('keeps a child recorded under the unkeyed hash, under its keyed one, so it is not created again', () => {
    const state = { fields: {}, children: { [`work:${legacyHashOf(entry)}`]: 41, 'education:other': 7 } };
    expect(rekeyLegacyChild(state, 'work', entry, hasher).children).toEqual({
      [`work:${hasher.hash(entry)}`]: 41,
      'education:other': 7,
    });
  });

  it('leaves the state alone when no legacy key matches', () => {
    const state = { fields: {}, children: { [`work:${hasher.hash(entry)}`]: 41 } };
    expect(rekeyLegacyChild(state, 'work', entry, hasher)).toBe(state);
  });
});

type Row = Record<string, unknown> & { id: number };

/**
 * ATS-B's work history and education, as the client reads them back: what was sent after the vendor's
 * normalisation (text trimmed, empty text as null), and the faults the tests need.
 */
function fakeAtsB() {
  const work: Row[] = [];
  const education: Row[] = [];
  let next = 100;
  const faults = { timeoutAfterSend: 0, timeoutBeforeSend: 0 };
  const calls = { createWork: 0, createEducation: 0, listWork: 0, listEducation: 0 };
  const normalised = (body: Record<string, unknown>): Row => {
    const { candidate: _candidate, ...fields } = body;
    const row: Row = { id: ++next };
    for (const [key, value] of Object.entries(fields)) {
      row[key] = typeof value === 'string' ? value.trim() || null : (value ?? null);
    }
    return row;
  };
  const create = (into: Row[], body: Record<string, unknown>) => {
    if (faults.timeoutBeforeSend > 0) {
      faults.timeoutBeforeSend--;
      throw new AtsError('timed out', { kind: 'transient', endpoint: 'PUT entity/x', ambiguous: true });
    }
    if (typeof body['title'] === 'string' && body['title'].length > 100) {
      throw new AtsError('ATS-B answered 400', {
        kind: 'permanent',
        status: 400,
        endpoint: 'PUT entity/CandidateWorkHistory',
        atsMessage: 'title exceeds 100 characters',
        fields: ['title'],
      });
    }
    const row = normalised(body);
    into.push(row);
    if (faults.timeoutAfterSend > 0) {
      faults.timeoutAfterSend--;
      throw new AtsError('timed out after sending', {
        kind: 'transient',
        endpoint: 'PUT entity/x',
        ambiguous: true,
      });
    }
    return { changedEntityId: row.id };
  };
  const client = {
    updateCandidate: async () => ({ changedEntityId: 1 }),
    createWorkHistory: async (body: Record<string, unknown>) => {
      calls.createWork++;
      return create(work, body);
    },
    createEducation: async (body: Record<string, unknown>) => {
      calls.createEducation++;
      return create(education, body);
    },
    listCandidateWorkHistories: async () => {
      calls.listWork++;
      return work.map((row) => ({ ...row }));
    },
    listCandidateEducations: async () => {
      calls.listEducation++;
      return education.map((row) => ({ ...row }));
    },
  };
  return { work, education, faults, calls, client: client as unknown as AtsBClient };
}

describe(AtsBCandidateSink.name, () => {
  const hasher = new FieldHasher('k'.repeat(32));
  const candidate = (over: Partial<CandidateDataDto> = {}): CandidateDataDto => ({
    candidateId: 'c1',
    firstName: 'Ada',
    lastName: 'Lovelace',
    email: 'ada@example.com',
    workHistory: [{ employer: 'Acme', title: 'Engineer', startDate: '2020-01', current: true }],
    education: [{ institution: 'Uni', degree: 'BSc' }],
    ...over,
  });

  /** One delivery of the event: update from the last checkpoint; the checkpoints are what Postgres keeps. */
  function harness() {
    const ats = fakeAtsB();
    const sink = new AtsBCandidateSink(ats.client, hasher);
    let saved: SentState = NOTHING_SENT;
    const run = async (data: CandidateDataDto) => {
      saved = await sink.update('7', data, saved, async (state) => {
        saved = state;
      });
      return saved;
    };
    return { ats, run, saved: () => saved };
  }

  it('creates each child once, and nothing on a retry with the same content', async () => {
    const { ats, run } = harness();
    await run(candidate());
    await run(candidate());
    expect(ats.work).toHaveLength(1);
    expect(ats.education).toHaveLength(1);
    // Nothing was unsure: the ATS is not read.
    expect(ats.calls.listWork + ats.calls.listEducation).toBe(0);
  });

  it('does not create a child twice when its create timed out after sending (found by content)', async () => {
    const { ats, run, saved } = harness();
    ats.faults.timeoutAfterSend = 1;
    await expect(run(candidate())).rejects.toMatchObject({ ambiguous: true });
    const afterTimeout = Object.values(saved().children);
    expect(afterTimeout).toEqual([0]); // recorded as sent but unsure
    await run(candidate());
    expect(ats.work).toHaveLength(1);
    expect(ats.education).toHaveLength(1);
    expect(Object.values(saved().children).sort()).toEqual([ats.work[0]!.id, ats.education[0]!.id].sort());
    expect(ats.calls.createWork).toBe(1);
  });

  it('does not create an education twice when its create timed out after sending', async () => {
    const { ats, run } = harness();
    const data = candidate({ workHistory: [] });
    ats.faults.timeoutAfterSend = 1;
    await expect(run(data)).rejects.toBeInstanceOf(AtsError);
    await run(data);
    await run(data);
    expect(ats.education).toHaveLength(1);
    expect(ats.calls.listEducation).toBe(1);
  });

  it('does not create a child twice when its checkpoint was lost after the create', async () => {
    const ats = fakeAtsB();
    const sink = new AtsBCandidateSink(ats.client, hasher);
    let saved: SentState = NOTHING_SENT;
    let failNextRecordedId = true;
    const checkpoint = async (state: SentState) => {
      if (failNextRecordedId && Object.values(state.children).some((id) => id > 0)) {
        failNextRecordedId = false;
        throw new Error('Connection terminated');
      }
      saved = state;
    };
    const data = candidate({ education: [] });
    await expect(sink.update('7', data, saved, checkpoint)).rejects.toThrow('Connection terminated');
    saved = await sink.update('7', data, saved, checkpoint);
    expect(ats.work).toHaveLength(1);
    expect(Object.values(saved.children)).toEqual([ats.work[0]!.id]);
  });

  it('creates a child marked unsure when the ATS does not have it (the timeout was before it landed)', async () => {
    const { ats, run, saved } = harness();
    ats.faults.timeoutBeforeSend = 1;
    await expect(run(candidate({ education: [] }))).rejects.toBeInstanceOf(AtsError);
    expect(ats.work).toHaveLength(0);
    await run(candidate({ education: [] }));
    expect(ats.work).toHaveLength(1);
    expect(Object.values(saved().children)).toEqual([ats.work[0]!.id]);
  });

  it('finds an unsure child whatever the ATS made of empty and padded text', async () => {
    const { ats, run } = harness();
    const data = candidate({
      workHistory: [
        {
          employer: '  Acme Ltd ',
          title: 'Engineer',
          startDate: '2020-01',
          endDate: '2021-06',
          description: '',
        },
      ],
      education: [{ institution: 'Uni', degree: '', fieldOfStudy: 'Maths ' }],
    });
    ats.faults.timeoutAfterSend = 1;
    await expect(run(data)).rejects.toBeInstanceOf(AtsError);
    // Only this record: its optional fields come back absent rather than null.
    for (const key of Object.keys(ats.work[0]!)) if (ats.work[0]![key] === null) delete ats.work[0]![key];
    await run(data);
    expect(ats.work).toHaveLength(1);
    expect(ats.work[0]).toMatchObject({ companyName: 'Acme Ltd' });
    expect(ats.education).toHaveLength(1);
  });

  it('does not take a record already recorded for another entry, nor one with other content', async () => {
    const { ats, run, saved } = harness();
    const other = { employer: 'Acme', title: 'Engineer', startDate: '2019-01', current: true };
    await run(candidate({ workHistory: [other], education: [] }));
    ats.faults.timeoutAfterSend = 1;
    const both = candidate({ workHistory: [other, { ...other, startDate: '2020-01' }], education: [] });
    await expect(run(both)).rejects.toBeInstanceOf(AtsError);
    await run(both);
    expect(ats.work).toHaveLength(2);
    expect(new Set(Object.values(saved().children)).size).toBe(2);
  });

  it('sends the other children when the ATS refuses one, and reports the refusal after them', async () => {
    const { ats, run, saved } = harness();
    const data = candidate({
      workHistory: [
        { employer: 'Acme', title: 'Engineer', startDate: '2020-01' },
        { employer: 'Bad', title: 'X'.repeat(300), startDate: '2021-01' },
        { employer: 'Later', title: 'Lead', startDate: '2022-01' },
      ],
      education: [{ institution: 'Uni' }],
    });
    const error = await run(data).then(
      () => undefined,
      (e: unknown) => e,
    );
    // Permanent, so the service dead-letters it (toMessageError); the ATS's words (they may quote the
    // candidate) only in `atsMessage`, which toMessageError keeps as details for the dead letter alone.
    expect(error).toMatchObject({
      kind: 'permanent',
      ambiguous: false,
      code: 'children_refused',
      fields: ['title'],
      message: 'ATS-B refused 1 work history entry (fields: title); the rest was sent',
      atsMessage:
        'ATS-B refused 1 work history entry (the rest was sent): work history entry: title exceeds 100 characters',
    });
    expect(ats.work.map((w) => w['companyName'])).toEqual(['Acme', 'Later']);
    expect(ats.education).toHaveLength(1);
    // All of it checkpointed before the refusal was thrown: the refused one as refused (-1).
    expect(Object.values(saved().children).sort((a, b) => a - b)).toEqual([
      -1,
      ...[...ats.work, ...ats.education].map((r) => r.id).sort((a, b) => a - b),
    ]);

    // A later event (the same content, or a changed field) is applied: the refused entry is not sent again.
    const creates = ats.calls.createWork;
    await expect(run({ ...data, phone: '+44 20 7946 0000' })).resolves.toBeDefined();
    expect(ats.calls.createWork).toBe(creates);
    // Corrected content is a new entry: it is sent.
    await run({
      ...data,
      workHistory: [...data.workHistory!.slice(0, 1), { employer: 'Bad', title: 'X', startDate: '2021-01' }],
    });
    expect(ats.work.map((w) => w['companyName'])).toEqual(['Acme', 'Later', 'Bad']);
  });

  it('still stops at a failure that is not about the child (the candidate is gone, no rights)', async () => {
    const ats = fakeAtsB();
    (ats.client as unknown as Record<string, unknown>)['createWorkHistory'] = async () => {
      throw new AtsError('ATS-B answered 403', { kind: 'forbidden', status: 403, endpoint: 'PUT x' });
    };
    const sink = new AtsBCandidateSink(ats.client, hasher);
    await expect(sink.update('7', candidate(), NOTHING_SENT, async () => undefined)).rejects.toMatchObject({
      kind: 'forbidden',
    });
    expect(ats.education).toHaveLength(0);
  });

  it('skips children recorded by earlier versions (positive ids) without reading the ATS', async () => {
    const { ats } = harness();
    const sink = new AtsBCandidateSink(ats.client, hasher);
    const data = candidate();
    const first = await sink.update('7', data, NOTHING_SENT, async () => undefined);
    const stored = JSON.parse(JSON.stringify(first)) as SentState;
    await sink.update('7', data, stored, async () => undefined);
    expect(ats.work).toHaveLength(1);
    expect(ats.calls.listWork + ats.calls.listEducation).toBe(0);
  });
});
