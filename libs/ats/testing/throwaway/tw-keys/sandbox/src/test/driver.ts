import { randomBytes } from 'node:crypto';
import type {
  AtsTestDriver,
  SandboxCandidate,
  TestGateway,
  TestSandbox,
} from '@connector/ats-sandbox-core/testing';
import { startTwKeysSandbox } from '../lib/tw-keys-sandbox.server';

const CLIENT_ID = 'e2e-client';

/** The Keys vendor in the e2e test world: a sandbox with 12 jobs, connected with an API client saved through auth-gateway. */
export const testDriver: AtsTestDriver = {
  type: 'tw-keys',
  async start(options?: { vacancies?: number }): Promise<TestSandbox> {
    const clientSecret = `secret-${randomBytes(8).toString('hex')}`;
    const running = await startTwKeysSandbox({
      port: 0,
      host: '127.0.0.1',
      clients: [{ clientId: CLIENT_ID, clientSecret }],
      jobs: options?.vacancies ?? 12,
    });
    const job = (externalId: string) => {
      const found = running.jobs().find((j) => String(j.id) === externalId);
      if (!found) throw new Error(`the Keys vendor has no job ${externalId}`);
      return found;
    };
    const change = (externalId: string, to: Parameters<typeof running.changeJob>[1]) =>
      running.changeJob(job(externalId).id, to);
    // Returned as a variable, not a literal: the parts the world's vacancy e2e reads are extra to older drivers.
    const sandbox = {
      url: running.url,
      running,
      serviceEnv: {},
      async connect(gateway: TestGateway) {
        await gateway.saveCredentials({ baseUrl: running.url, clientId: CLIENT_ID, clientSecret });
        return { baseUrl: running.url, clientId: CLIENT_ID };
      },
      candidates: (email: string): SandboxCandidate[] =>
        running
          .people()
          .filter((person) => person.email === email)
          .map((person) => ({
            externalId: String(person.id),
            firstName: person.first_name,
            lastName: person.last_name,
            email: person.email,
            phone: person.phone,
            mobile: person.mobile,
            workHistory: person.jobs.map((job) => ({
              employer: job.employer,
              startDate: job.from,
              endDate: job.to,
            })),
            education: person.schools.map((school) => ({
              institution: school.name,
              degree: school.degree,
              fieldOfStudy: school.subject,
            })),
          })),
      vacancies: {
        liveIds: () =>
          running
            .jobs()
            .filter((j) => j.state === 'open' && j.listed)
            .map((j) => String(j.id))
            .sort(),
        expected: (externalId: string) => ({ title: job(externalId).headline, companyName: undefined }),
        retitle: (externalId: string, headline: string) => change(externalId, { headline }),
        close: (externalId: string) => change(externalId, { state: 'filled' }),
        hide: (externalId: string) => change(externalId, { listed: false }),
        reopen: (externalId: string) => change(externalId, { state: 'open' }),
        remove: (externalId: string) => change(externalId, 'remove'),
      },
      totalCalls: () => running.calls(),
      resetCalls: () => running.resetCalls(),
      close: () => running.close(),
    };
    return sandbox;
  },
};
