import { existsSync } from 'node:fs';
import { join } from 'node:path';

/**
 * How the e2e test world (`@connector/test-world`) uses an ATS's sandbox: each ATS's folder exports one as
 * `testDriver` from `libs/ats/<type>/sandbox/src/test/driver.ts`, so a new ATS brings its e2e coverage with it
 * and no test lists the ATSs. It speaks in the platform's words (a candidate's email, its names), never in
 * the vendor's; a check that only makes sense for one ATS reads `running`, the sandbox as its package types it.
 */
export interface AtsTestDriver {
  /** The ATS it drives: its adapter's `type`. */
  type: string;
  /** Starts a sandbox of the suite's own on a free port, seeded for the e2e and with a demo login. */
  start(options?: TestSandboxOptions): Promise<TestSandbox>;
}

export interface TestSandboxOptions {
  /** Where the platform's admin API is reached (connector-registry's `PUBLIC_URL`): an interactive login's callback. */
  publicUrl?: string;
  /** How many vacancies it is seeded with (its own default otherwise), and the seed that makes them. */
  vacancies?: number;
  seed?: number;
  /** A daily limit of `calls` that resets every `windowSeconds` (an ATS with `daily-budget`). */
  dailyLimit?: { calls: number; windowSeconds: number };
  /** The sandbox package's own start options, over the driver's: for a spec's block marked for this one ATS. */
  vendor?: Record<string, unknown>;
}

export interface TestSandbox {
  url: string;
  /** The sandbox as its package starts it (its state, its faults), for checks written for this one ATS. */
  running: unknown;
  /** What the services need to reach it (an interactive login's addresses), given to every service. */
  serviceEnv: Record<string, string>;
  /**
   * Connects a connector the ATS's own way, through auth-gateway as connector-registry would (credentials
   * saved, or the interactive login driven through the sandbox's form), and answers the connector's config as
   * the registry keeps it (no secret in it).
   */
  connect(gateway: TestGateway): Promise<Record<string, unknown>>;
  /** The candidates the ATS holds under `email`, in the platform's words. */
  candidates(email: string): SandboxCandidate[];
  /** The applications of the candidate `candidateExternalId` (an ATS with `applications`). */
  applications?(candidateExternalId: string): SandboxApplication[];
  /** The external ids of some vacancies it holds, `count` of them (an ATS with `applications`). */
  vacancyIds?(count: number): string[];
  /** The files attached to the candidate `candidateExternalId` (an ATS with `documents`). */
  files?(candidateExternalId: string): SandboxFile[];
  /** Its vacancies, read and changed as a recruiter would in the ATS (an ATS with `vacancies`). */
  vacancies?: SandboxVacancies;
  /** How many API calls it answered since the last `resetCalls()` (token calls aside). */
  totalCalls(): number;
  resetCalls(): void;
  close(): Promise<void>;
}

/** Vacancies in the platform's words; the ids are the ATS's (a vacancy's `externalId`). */
export interface SandboxVacancies {
  /** The vacancies a sync should publish by default (open, on the careers site, advertised today), sorted. */
  liveIds(): string[];
  /** What the platform should see of a vacancy: its title and its company's name. */
  expected(externalId: string): { title: string; companyName: string | undefined };
  retitle(externalId: string, title: string): void;
  close(externalId: string): void;
  /** Takes it off the careers site without closing it (however the ATS says that). */
  hide(externalId: string): void;
  reopen(externalId: string): void;
  /** Deletes the record outright: no changes listing shows it, only a full listing misses it. */
  remove(externalId: string): void;
}

/** auth-gateway as connector-registry asks it, for one connector (the world binds the account and id). */
export interface TestGateway {
  /** `auth.credentials.save` with `config`, its secret fields sealed as the registry seals them. */
  saveCredentials(config: Record<string, unknown>): Promise<void>;
  /**
   * The interactive login: `auth.authorization.start`, then `login` (a browser at the ATS) gets the authorize
   * URL and answers where the ATS sent the browser back (`…/callback?code=…&state=…`), then
   * `auth.authorization.complete` with that code and state.
   */
  authorize(login: (authorizeUrl: string) => Promise<string>): Promise<void>;
}

/** A candidate as the ATS keeps it, in the platform's words (dates as `YYYY-MM`). */
export interface SandboxCandidate {
  externalId: string;
  firstName: string;
  lastName: string;
  email: string;
  phone: string | null;
  mobile: string | null;
  workHistory: { employer: string; startDate: string | null; endDate: string | null }[];
  education: { institution: string; degree: string | null; fieldOfStudy: string | null }[];
}

export interface SandboxFile {
  externalId: string;
  /** Its file name as the ATS keeps it. */
  name: string;
  sha256: string;
}

export interface SandboxApplication {
  externalId: string;
  vacancyExternalId: string;
  answers: { question: string; answer: string | null }[];
}

/**
 * The test drivers of `types` (the registry's), found by path in each ATS's folder beside this one's, as
 * `sandboxesOf` finds the sandboxes; an ATS without one is named, since its e2e coverage would be lost.
 */
export function testDriversOf(types: readonly string[]): AtsTestDriver[] {
  return types.map((type) => {
    const path = join(__dirname, '..', '..', '..', '..', type, 'sandbox', 'src', 'test', 'driver');
    if (!['.ts', '.js'].some((extension) => existsSync(`${path}${extension}`)))
      throw new Error(`${type} has no test driver (${path}.ts exporting testDriver)`);
    const { testDriver } = require(path) as { testDriver: AtsTestDriver };
    if (testDriver.type !== type) throw new Error(`${path} drives ${testDriver.type}, not ${type}`);
    return testDriver;
  });
}
