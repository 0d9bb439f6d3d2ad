import { RoutingKey } from '@connector/contracts';
import type { RunningAtsASandbox } from '@connector/ats-a-sandbox';
import type { RunningAtsBSandbox } from '@connector/ats-b-sandbox';
import type { ChaosStack, DeadLetterRow } from './chaos-stack';
import type { EventRecorder } from './event-recorder';

/** What can be seen from outside at one moment: the two ATSs, what was published, the failure log. */
export interface World {
  connectors: { atsA: string; atsB: string };
  recorder: EventRecorder;
  atsA: {
    candidatesByEmail: Map<string, Array<{ id: number; mobile: string | null }>>;
    /** Applications per "candidateId:vacancyId". */
    applications: Map<string, number>;
    filesBySha: Map<string, number>;
  };
  atsB: {
    candidatesByEmail: Map<string, Array<{ id: number; mobile: string | null }>>;
    filesByExternalId: Map<string, number>;
  };
  deadLetters: Map<string, DeadLetterRow>;
  /** `vacancy.upserted` per "connectorId:externalId". */
  vacanciesPublished: Map<string, number>;
  /** `run.completed` status per run id. */
  runs: Map<string, string>;
}

/** Reads the world once; `deadLetters` is the last failure log read (Postgres may be down for a moment). */
export function observe(stack: ChaosStack, deadLetters: DeadLetterRow[]): World {
  return {
    connectors: stack.connectors,
    recorder: stack.recorder,
    atsA: observeAtsA(stack.atsA),
    atsB: observeAtsB(stack.atsB),
    deadLetters: new Map(deadLetters.filter((d) => d.messageId).map((d) => [d.messageId as string, d])),
    ...observePublished(stack.recorder),
  };
}

function observePublished(recorder: EventRecorder): Pick<World, 'vacanciesPublished' | 'runs'> {
  const vacanciesPublished = new Map<string, number>();
  for (const e of recorder.ofType(RoutingKey.VacancyUpserted))
    increment(vacanciesPublished, `${String(e.data.connectorId)}:${String(e.data.externalId)}`);
  const runs = new Map<string, string>();
  for (const e of recorder.ofType(RoutingKey.RunCompleted))
    runs.set(String(e.data.runId), String(e.data.status));
  return { vacanciesPublished, runs };
}

function observeAtsA(atsA: RunningAtsASandbox): World['atsA'] {
  const candidatesByEmail = new Map<string, Array<{ id: number; mobile: string | null }>>();
  for (const c of atsA.state.candidates())
    push(candidatesByEmail, c.Email.toLowerCase(), { id: c.CandidateId, mobile: c.Mobile });
  const applications = new Map<string, number>();
  for (const a of atsA.state.applications()) increment(applications, `${a.Candidate.Id}:${a.Vacancy.Id}`);
  const filesBySha = new Map<string, number>();
  for (const f of atsA.state.files()) increment(filesBySha, f.sha256);
  return { candidatesByEmail, applications, filesBySha };
}

function observeAtsB(atsB: RunningAtsBSandbox): World['atsB'] {
  const candidatesByEmail = new Map<string, Array<{ id: number; mobile: string | null }>>();
  for (const c of atsB.state.candidates())
    if (c.email && !c.isDeleted)
      push(candidatesByEmail, c.email.toLowerCase(), { id: c.id, mobile: c.mobile });
  const filesByExternalId = new Map<string, number>();
  for (const f of atsB.state.files()) increment(filesByExternalId, f.externalID);
  return { candidatesByEmail, filesByExternalId };
}

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

function increment<K>(map: Map<K, number>, key: K): void {
  map.set(key, (map.get(key) ?? 0) + 1);
}
