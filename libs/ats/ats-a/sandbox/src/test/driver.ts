import { randomBytes } from 'node:crypto';
import type { AtsTestDriver, SandboxVacancies, TestSandbox } from '@connector/ats-sandbox-core/testing';
import { type AtsASandboxOptions, type AtsASandboxState, ID_BASE, startAtsASandbox } from '../index';

const CLIENT_ID = 'demo-client';
/** The statuses a connector takes as open unless its options name others. */
const OPEN_STATUSES = ['Open', 'Live'];

/**
 * ATS-A in the e2e test world: a sandbox with 20 vacancies and no daily limit a suite reaches, connected
 * with client credentials saved through auth-gateway (as the registry does on `POST /connectors`).
 */
export const testDriver: AtsTestDriver = {
  type: 'ats-a',
  async start(options = {}): Promise<TestSandbox> {
    const clientSecret = `secret-${randomBytes(8).toString('hex')}`;
    const vendor: AtsASandboxOptions = options.vendor ?? {};
    const running = await startAtsASandbox({
      seed: { vacancies: options.vacancies ?? 20, seed: options.seed },
      dailyLimit: options.dailyLimit?.calls ?? 1_000_000,
      quotaWindowSeconds: options.dailyLimit?.windowSeconds,
      ...vendor,
      // The driver's own client beside a spec's, so that `connect` works whatever the spec adds.
      clients: [{ clientId: CLIENT_ID, clientSecret }, ...(vendor.clients ?? [])],
    });
    const { state } = running;
    return {
      url: running.url,
      running,
      serviceEnv: {},
      async connect(gateway) {
        await gateway.saveCredentials({ baseUrl: running.url, clientId: CLIENT_ID, clientSecret });
        return { baseUrl: running.url, clientId: CLIENT_ID };
      },
      candidates: (email) =>
        state
          .candidates()
          .filter((c) => c.Email === email)
          .map((c) => ({
            externalId: String(c.CandidateId),
            firstName: c.FirstName,
            lastName: c.Surname,
            email: c.Email,
            phone: c.Telephone,
            mobile: c.Mobile,
            workHistory: c.EmploymentHistory.map((w) => ({
              employer: w.Employer ?? '',
              startDate: w.StartDate,
              endDate: w.EndDate,
            })),
            education: c.Education.map((e) => ({
              institution: e.Establishment ?? '',
              degree: e.Qualification,
              fieldOfStudy: e.Subject,
            })),
          })),
      applications: (candidateExternalId) =>
        state
          .applications()
          .filter((a) => String(a.Candidate.Id) === candidateExternalId)
          .map((a) => ({
            externalId: String(a.ApplicationId),
            vacancyExternalId: String(a.Vacancy.Id),
            answers: a.Questions.map((q) => ({ question: q.Question, answer: q.Answer })),
          })),
      files: (candidateExternalId) =>
        state
          .files()
          .filter((f) => String(f.CandidateId) === candidateExternalId)
          .map((f) => ({ externalId: String(f.FileId), name: f.fileName, sha256: f.sha256 })),
      // The seed numbers its vacancies from the first of their range.
      vacancyIds: (count) => Array.from({ length: count }, (_, i) => String(ID_BASE.vacancy + i + 1)),
      vacancies: vacanciesOf(state),
      totalCalls: () => state.callCounts().total,
      resetCalls: () => state.resetCalls(),
      close: () => running.close(),
    };
  },
};

/** Live: an open status, on the careers site, and advertised today (from its posting to its last day, UTC). */
function vacanciesOf(state: AtsASandboxState): SandboxVacancies {
  const vacancy = (id: string) => {
    const found = state.getVacancy(Number(id));
    if (!found) throw new Error(`no vacancy ${id} in the sandbox`);
    return found;
  };
  return {
    liveIds() {
      const today = new Date().toISOString().slice(0, 10);
      const ids: string[] = [];
      for (let id = 1; id <= state.vacancyCount(); id++) {
        const v = state.getVacancy(ID_BASE.vacancy + id);
        if (!v || !v.IncludeOnSite || !OPEN_STATUSES.includes(v.VacancyStatus.Description)) continue;
        if (v.DatePosted && v.DatePosted.slice(0, 10) > today) continue;
        if (v.AdvertisingEndDate && v.AdvertisingEndDate.slice(0, 10) < today) continue;
        ids.push(String(v.VacancyId));
      }
      return ids.sort();
    },
    expected(id) {
      const v = vacancy(id);
      return {
        title: v.Title.Description,
        companyName: v.Company ? state.getCompany(v.Company.Id)?.Name : undefined,
      };
    },
    retitle: (id, title) => void state.updateVacancy(Number(id), { Title: title }),
    close: (id) => void state.closeVacancy(Number(id)),
    hide: (id) => void state.unpublish(Number(id)),
    reopen: (id) => void state.updateVacancy(Number(id), { VacancyStatus: 'Live' }),
    remove: (id) => state.removeVacancy(Number(id)),
  };
}
