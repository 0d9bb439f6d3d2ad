import { randomBytes } from 'node:crypto';
import type { AtsTestDriver, TestSandbox } from '@connector/ats-sandbox-core/testing';
import { startTwKeysSandbox } from '../lib/tw-keys-sandbox.server';

const CLIENT_ID = 'e2e-client';

/** The Keys vendor in the e2e test world: a sandbox with 12 jobs, connected with an API client saved through auth-gateway. */
export const testDriver: AtsTestDriver = {
  type: 'tw-keys',
  async start(): Promise<TestSandbox> {
    const clientSecret = `secret-${randomBytes(8).toString('hex')}`;
    const running = await startTwKeysSandbox({
      port: 0,
      host: '127.0.0.1',
      clients: [{ clientId: CLIENT_ID, clientSecret }],
      jobs: 12,
    });
    return {
      url: running.url,
      running,
      serviceEnv: {},
      async connect(gateway) {
        await gateway.saveCredentials({ baseUrl: running.url, clientId: CLIENT_ID, clientSecret });
        return { baseUrl: running.url, clientId: CLIENT_ID };
      },
      candidates: (email) =>
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
      close: () => running.close(),
    };
  },
};
