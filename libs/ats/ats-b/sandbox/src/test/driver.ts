import type { AtsTestDriver, SandboxVacancies, TestSandbox } from '@connector/ats-sandbox-core/testing';
import { type AtsBSandboxOptions, type AtsBSandboxState, startAtsBSandbox } from '../index';
import { sandbox } from '../sandbox';
import { driveLoginForm } from './login-form.driver';

const LOGIN = { username: 'recruiter', password: 'recruiter-pass' };

/** A date the ATS keeps in epoch milliseconds, as the platform writes it (`YYYY-MM`). */
const month = (ms: number | null | undefined): string | null =>
  ms === null || ms === undefined ? null : new Date(ms).toISOString().slice(0, 7);

/**
 * ATS-B in the e2e test world: a sandbox with its demo recruiter, connected by the interactive login driven
 * through the sandbox's HTML form (auth-gateway gets its login's addresses from the sandbox's declaration).
 */
export const testDriver: AtsTestDriver = {
  type: 'ats-b',
  async start(options = {}): Promise<TestSandbox> {
    const seed =
      options.vacancies === undefined ? {} : { seed: { jobs: options.vacancies, seed: options.seed } };
    const vendor: AtsBSandboxOptions = options.vendor ?? {};
    const running = await startAtsBSandbox({ ...seed, ...vendor });
    const { state } = running;
    return {
      url: running.url,
      running,
      serviceEnv: sandbox.serviceEnv?.(running.url, options.publicUrl) ?? {},
      async connect(gateway) {
        await gateway.authorize((authorizeUrl) => driveLoginForm(authorizeUrl, LOGIN));
        return { routine: 'api-oauth' };
      },
      candidates: (email) =>
        state
          .candidates()
          .filter((c) => c.email === email)
          .map((c) => ({
            externalId: String(c.id),
            firstName: c.firstName ?? '',
            lastName: c.lastName ?? '',
            email: c.email ?? '',
            phone: c.phone ?? null,
            mobile: c.mobile ?? null,
            workHistory: c.workHistories.map((w) => ({
              employer: w.companyName ?? '',
              startDate: month(w.startDate),
              endDate: month(w.endDate),
            })),
            education: c.educations.map((e) => ({
              institution: e.school ?? '',
              degree: e.degree ?? null,
              fieldOfStudy: e.major ?? null,
            })),
          })),
      files: (candidateExternalId) =>
        state
          .filesOf(Number(candidateExternalId))
          .map((f) => ({ externalId: String(f.id), name: f.name, sha256: f.sha256 })),
      vacancies: vacanciesOf(state),
      totalCalls: () => state.totalCalls(),
      resetCalls: () => state.resetCalls(),
      close: () => running.close(),
    };
  },
};

/** Live: open, published (isPublic 1, an Integer at the vendor) and not deleted. */
function vacanciesOf(state: AtsBSandboxState): SandboxVacancies {
  const job = (id: string) => {
    const found = state.job(Number(id));
    if (!found) throw new Error(`no job order ${id} in the sandbox`);
    return found;
  };
  return {
    liveIds() {
      const ids: string[] = [];
      for (let id = 1; id <= state.jobs.size; id++) {
        const found = state.job(id);
        if (found && found.isOpen && found.isPublic === 1 && !found.isDeleted) ids.push(String(id));
      }
      return ids.sort();
    },
    expected(id) {
      const found = job(id);
      return { title: found.title ?? '', companyName: found.clientCorporation?.name ?? undefined };
    },
    retitle: (id, title) => void state.updateJob(Number(id), { title }),
    close: (id) => void state.closeJob(Number(id)),
    hide: (id) => void state.updateJob(Number(id), { isPublic: 0 }),
    reopen: (id) => void state.updateJob(Number(id), { isOpen: true }),
    remove: (id) => state.removeJob(Number(id)),
  };
}
