import { randomBytes } from 'node:crypto';
import type { AtsTestDriver, TestSandbox } from '@connector/ats-sandbox-core/testing';
import { ID_BASE, startAtsASandbox } from '../index';

const CLIENT_ID = 'demo-client';

/**
 * ATS-A in the e2e test world: a sandbox with 20 vacancies and no daily limit a suite reaches, connected
 * with client credentials saved through auth-gateway (as the registry does on `POST /connectors`).
 */
export const testDriver: AtsTestDriver = {
  type: 'ats-a',
  async start({ sandbox: options } = {}): Promise<TestSandbox> {
    const clientSecret = `secret-${randomBytes(8).toString('hex')}`;
    const running = await startAtsASandbox(
      options ?? {
        clients: [{ clientId: CLIENT_ID, clientSecret }],
        seed: { vacancies: 20 },
        dailyLimit: 1_000_000,
      },
    );
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
      // The seed numbers its vacancies from the first of their range.
      vacancyIds: (count) => Array.from({ length: count }, (_, i) => String(ID_BASE.vacancy + i + 1)),
      close: () => running.close(),
    };
  },
};
