import { createHash } from 'node:crypto';
import {
  type ApplicationDataDto,
  type CandidateDataDto,
  createEvent,
  type DocumentDataDto,
  RoutingKey,
} from '@connector/contracts';
import type { FileServer } from '@connector/testing';
import type { OutgoingMessage } from './burst-publisher';
import {
  atsAApplicationExpectation,
  candidateExpectation,
  documentExpectation,
  type Expectation,
  invalidEventExpectation,
  unsupportedExpectation,
} from './expectations';
import type { SeededRandom } from './seeded-random';

export interface WorkloadOptions {
  /** About how many messages the burst holds. */
  events: number;
  accountId: string;
  connectors: { atsA: string; atsB: string };
  applications: boolean;
  documents: boolean;
  /** ATS-A vacancy ids applications may name (1..n). */
  atsAVacancies: number;
  atsBJobs: number;
  files: FileServer;
  /** Prefix of every id and email, so a burst is recognisable. */
  tag: string;
}

export interface Burst {
  messages: OutgoingMessage[];
  expectations: Expectation[];
  counts: Record<string, number>;
}

const FIRST = [
  'Ada',
  'Grace',
  'Alan',
  'Edsger',
  'Barbara',
  'Donald',
  'Margaret',
  'Tony',
  'Frances',
  'Niklaus',
];
const LAST = ['Lovelace', 'Hopper', 'Turing', 'Dijkstra', 'Liskov', 'Knuth', 'Hamilton', 'Hoare', 'Allen'];
/** A share of each burst is invalid on purpose: each must end in the failure log with its reasons. */
const INVALID_SHARE = 0.02;
const BASE_TIME = Date.parse('2026-11-21T09:00:00.000Z');

type Step = (occurredAt: Date) => OutgoingMessage;

/**
 * A burst the platform could send, drawn from the seed: candidates created (some updated after), their
 * applications to ATS-A vacancies (some also to an ATS-B job: unsupported there), their CVs and documents,
 * and a few invalid events. Each candidate's messages keep their order; candidates are interleaved.
 */
export function buildBurst(random: SeededRandom, options: WorkloadOptions): Burst {
  const stories: Step[][] = [];
  const expectations: Expectation[] = [];
  const counts: Record<string, number> = {};
  const count = (type: string) => (counts[type] = (counts[type] ?? 0) + 1);
  const { atsA, atsB } = options.connectors;
  let planned = 0;

  for (let i = 0; planned < options.events; i++) {
    if (random.chance(INVALID_SHARE)) {
      const id = random.uuid();
      // A candidate without an email: the transport refuses it before any handler runs.
      stories.push([
        (at) =>
          message(
            createEvent(
              RoutingKey.CandidateCreated,
              options.accountId,
              { candidateId: `${options.tag}-x${i}`, firstName: 'No', lastName: 'Email' },
              { id, occurredAt: at },
            ),
          ),
      ]);
      expectations.push(invalidEventExpectation({ label: `invalid event ${id}`, eventId: id }));
      count('invalid');
      planned++;
      continue;
    }
    const story: Step[] = [];
    /** One event of this candidate's story, published at its turn (`at`), and counted. */
    const tell = (type: string, data: object, id: string) => {
      story.push((at) => message(createEvent(type, options.accountId, data, { id, occurredAt: at })));
      count(type);
    };
    const candidateId = `${options.tag}-c${i}`;
    const email = `${options.tag}.c${i}@chaos.example.com`;
    const data: CandidateDataDto = {
      candidateId,
      firstName: random.pick(FIRST),
      lastName: random.pick(LAST),
      email,
      phone: `+44 20 7946 ${String(random.int(0, 9999)).padStart(4, '0')}`,
      mobile: `+44 7700 ${String(random.int(0, 999999)).padStart(6, '0')}`,
      workHistory: [
        { employer: 'Chaos Engines Ltd', title: 'Engineer', startDate: '2020-01', current: true },
      ],
    };
    const createdId = random.uuid();
    const candidateEvents = [createdId];
    tell(RoutingKey.CandidateCreated, data, createdId);
    let newestMobile = data.mobile as string;
    if (random.chance(0.3)) {
      const updatedId = random.uuid();
      const updated = { ...data, mobile: `+44 7711 ${String(random.int(0, 999999)).padStart(6, '0')}` };
      newestMobile = updated.mobile;
      candidateEvents.push(updatedId);
      tell(RoutingKey.CandidateUpdated, updated, updatedId);
    }
    for (const [ats, name] of [
      ['atsA', 'ATS-A'],
      ['atsB', 'ATS-B'],
    ] as const) {
      expectations.push(
        candidateExpectation({
          label: `candidate ${candidateId} in ${name}`,
          ats,
          email,
          newestMobile,
          eventIds: candidateEvents,
        }),
      );
    }

    if (options.applications && random.chance(0.5)) {
      const applicationEventId = random.uuid();
      const first = random.int(1, options.atsAVacancies);
      const vacancyIds = random.chance(0.3) ? [first, (first % options.atsAVacancies) + 1] : [first];
      const toAtsB = random.chance(0.3);
      const application: ApplicationDataDto = {
        applicationId: `${options.tag}-a${i}`,
        candidateId,
        vacancies: [
          ...vacancyIds.map((v) => ({ connectorId: atsA, externalId: String(v) })),
          ...(toAtsB ? [{ connectorId: atsB, externalId: String(random.int(1, options.atsBJobs)) }] : []),
        ],
        answers: [{ question: 'Notice period?', answer: `${random.int(1, 3)} months` }],
      };
      tell(RoutingKey.ApplicationSubmitted, application, applicationEventId);
      for (const vacancyId of vacancyIds)
        expectations.push(
          atsAApplicationExpectation({
            label: `application ${application.applicationId} to ATS-A vacancy ${vacancyId}`,
            email,
            vacancyId,
            eventIds: [applicationEventId],
          }),
        );
      if (toAtsB)
        expectations.push(
          unsupportedExpectation({
            label: `application ${application.applicationId} unsupported by ATS-B`,
            eventId: applicationEventId,
          }),
        );
    }

    if (options.documents && random.chance(0.5)) {
      const documentEventId = random.uuid();
      const documentId = `${options.tag}-d${i}`;
      const content = Buffer.from(`%PDF-1.7\n% ${documentId} ${random.uuid()}\n%%EOF\n`);
      const sha256 = createHash('sha256').update(content).digest('hex');
      const document: DocumentDataDto = {
        documentId,
        candidateId,
        kind: random.chance(0.7) ? 'cv' : 'other',
        fileName: `${documentId}.pdf`,
        contentType: 'application/pdf',
        sizeBytes: content.length,
        sha256,
        url: options.files.serve(content),
      };
      tell(RoutingKey.DocumentUploaded, document, documentEventId);
      for (const [ats, name] of [
        ['atsA', 'ATS-A'],
        ['atsB', 'ATS-B'],
      ] as const)
        expectations.push(
          documentExpectation({
            label: `document ${documentId} in ${name}`,
            ats,
            documentId,
            sha256,
            eventId: documentEventId,
          }),
        );
    }
    planned += story.length;
    stories.push(story);
  }

  // Interleave the stories, each in its own order; occurredAt follows the publish order.
  const messages: OutgoingMessage[] = [];
  const cursors = stories.map(() => 0);
  let open = stories.map((_, i) => i);
  while (open.length > 0) {
    const s = random.pick(open);
    const step = stories[s][cursors[s]++];
    messages.push(step(new Date(BASE_TIME + messages.length * 1_000)));
    if (cursors[s] >= stories[s].length) open = open.filter((o) => o !== s);
  }
  return { messages, expectations, counts };
}

function message(event: { id: string; type: string }): OutgoingMessage {
  return { id: event.id, type: event.type, body: Buffer.from(JSON.stringify(event)) };
}
