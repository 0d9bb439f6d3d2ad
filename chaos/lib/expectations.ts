import { RoutingKey } from '@connector/contracts';
import type { World } from './world';

/**
 * Where one effect stands: `done` (in the ATS, or the outcome the contract promises), `failed` (not done,
 * but in the failure log with its reason) or `pending` (neither yet: lost if it stays so).
 */
export interface Verdict {
  state: 'done' | 'failed' | 'pending';
  /** Copies beyond the first in the ATS. */
  duplicates: number;
  /** Why it failed, as the failure log says. */
  reason?: string;
}

/** One effect the burst must have, checked against the world from outside. */
export interface Expectation {
  /** e.g. "candidate chaos-7-c12 in ATS-B". */
  label: string;
  check(world: World): Verdict;
}

/** The failure log's reasons for the first of the events it holds with at least one reason. */
function failureLogged(world: World, eventIds: readonly string[]): string | undefined {
  for (const id of eventIds) {
    const reasons = world.deadLetters.get(id)?.reasons ?? [];
    if (reasons.length > 0) return reasons.join('; ');
  }
  return undefined;
}

const verdict = (done: boolean, failed: string | boolean | undefined, copies: number): Verdict => ({
  state: done ? 'done' : failed ? 'failed' : 'pending',
  duplicates: Math.max(0, copies - 1),
  ...(!done && typeof failed === 'string' ? { reason: failed } : {}),
});

/** The candidate once in the ATS, holding what the newest of its events says. */
export function candidateExpectation(options: {
  label: string;
  ats: 'atsA' | 'atsB';
  email: string;
  newestMobile: string;
  eventIds: string[];
}): Expectation {
  return {
    label: options.label,
    check(world) {
      const records = world[options.ats].candidatesByEmail.get(options.email) ?? [];
      const current = records.some((r) => r.mobile === options.newestMobile);
      return verdict(current, failureLogged(world, options.eventIds), records.length);
    },
  };
}

/** An ATS-A application once per (candidate, vacancy). */
export function atsAApplicationExpectation(options: {
  label: string;
  email: string;
  vacancyId: number;
  eventIds: string[];
}): Expectation {
  return {
    label: options.label,
    check(world) {
      const candidates = world.atsA.candidatesByEmail.get(options.email) ?? [];
      const copies = candidates.reduce(
        (sum, c) => sum + (world.atsA.applications.get(`${c.id}:${options.vacancyId}`) ?? 0),
        0,
      );
      return verdict(copies > 0, failureLogged(world, options.eventIds), copies);
    },
  };
}

/** ATS-B takes no applications: the contract's answer is `operation.unsupported`. */
export function unsupportedExpectation(options: { label: string; eventId: string }): Expectation {
  return {
    label: options.label,
    check(world) {
      const reported =
        world.recorder.count(RoutingKey.OperationUnsupported, options.eventId, world.connectors.atsB) > 0;
      return verdict(reported, failureLogged(world, [options.eventId]), reported ? 1 : 0);
    },
  };
}

/** A document attached once to the candidate in the ATS. */
export function documentExpectation(options: {
  label: string;
  ats: 'atsA' | 'atsB';
  documentId: string;
  sha256: string;
  eventId: string;
}): Expectation {
  return {
    label: options.label,
    check(world) {
      const copies =
        options.ats === 'atsA'
          ? (world.atsA.filesBySha.get(options.sha256) ?? 0)
          : (world.atsB.filesByExternalId.get(options.documentId) ?? 0);
      return verdict(copies > 0, failureLogged(world, [options.eventId]), copies);
    },
  };
}

/** An invalid event: in the failure log with its reasons, and reported as `operation.failed`. */
export function invalidEventExpectation(options: { label: string; eventId: string }): Expectation {
  return {
    label: options.label,
    check(world) {
      const logged = failureLogged(world, [options.eventId]) !== undefined;
      const reported = world.recorder.count(RoutingKey.OperationFailed, options.eventId) > 0;
      return verdict(logged && reported, false, 1);
    },
  };
}

/** A vacancy-sync run that ends `succeeded`; a failed run carries its reason in the run history. */
export function runExpectation(options: { label: string; runId: string }): Expectation {
  return {
    label: options.label,
    check(world) {
      const status = world.runs.get(options.runId);
      const failed = status !== undefined && status !== 'succeeded' && `the run ended ${status}`;
      return verdict(status === 'succeeded', failed, 1);
    },
  };
}

/**
 * A live vacancy published by the run. Publishing is at least once (a crash re-publishes at most one page),
 * and a republished vacancy is no second effect anywhere: it is not counted as a duplicate.
 */
export function vacancyExpectation(options: {
  label: string;
  connectorId: string;
  externalId: string;
  runId: string;
}): Expectation {
  return {
    label: options.label,
    check(world) {
      const published = world.vacanciesPublished.has(`${options.connectorId}:${options.externalId}`);
      const status = world.runs.get(options.runId);
      const failed = status !== undefined && status !== 'succeeded' && `the run ended ${status}`;
      return verdict(published, failed, 1);
    },
  };
}
