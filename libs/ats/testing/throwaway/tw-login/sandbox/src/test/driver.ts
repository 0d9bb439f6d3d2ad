import type {
  AtsTestDriver,
  SandboxCandidate,
  TestGateway,
  TestSandbox,
} from '@connector/ats-sandbox-core/testing';
import { startTwLoginSandbox } from '../lib/tw-login-sandbox.server';
import { DEMO_CALLBACK, sandbox } from '../sandbox';
import { signIn } from './sign-in';

const CLIENT = { clientId: 'tw-platform', clientSecret: 'tw-platform-secret' };
const RECRUITER = { username: 'recruiter', password: 'recruiter-pass' };

/**
 * The Login vendor in the e2e test world: a sandbox with 10 openings whose OAuth client is the platform's as
 * the declaration's `serviceEnv` gives it to auth-gateway, connected by its sign-in page driven with fetch.
 */
export const testDriver: AtsTestDriver = {
  type: 'tw-login',
  async start(options?: { vacancies?: number }): Promise<TestSandbox> {
    const running = await startTwLoginSandbox({
      port: 0,
      host: '127.0.0.1',
      client: { ...CLIENT, redirectUris: [DEMO_CALLBACK] },
      users: [RECRUITER],
      openings: options?.vacancies ?? 10,
    });
    const opening = (key: string) => {
      const found = running.openings().find((o) => o.key === key);
      if (!found) throw new Error(`the Login vendor has no opening ${key}`);
      return found;
    };
    const change = (key: string, to: Parameters<typeof running.changeOpening>[1]) =>
      running.changeOpening(opening(key).key, to);
    const serviceEnv = {
      ...(sandbox.serviceEnv?.(running.url) ?? {}),
      TW_LOGIN_CLIENT_ID: CLIENT.clientId,
      TW_LOGIN_CLIENT_SECRET: CLIENT.clientSecret,
    };
    // Returned as a variable, not a literal: the parts the world's vacancy e2e reads are extra to older drivers.
    const testSandbox = {
      url: running.url,
      running,
      serviceEnv,
      async connect(gateway: TestGateway) {
        await gateway.authorize((authorizeUrl: string) => signIn(authorizeUrl, RECRUITER));
        return {};
      },
      candidates: (email: string): SandboxCandidate[] =>
        running
          .applicants()
          .filter((applicant) => applicant.emails.includes(email))
          .map((applicant) => ({
            externalId: applicant.key,
            firstName: applicant.name.first,
            lastName: applicant.name.last,
            email,
            phone: applicant.phones.home,
            mobile: applicant.phones.mobile,
            workHistory: applicant.career.map((job) => ({
              employer: job.company,
              startDate: job.start,
              endDate: job.end,
            })),
            education: applicant.studies.map((study) => ({
              institution: study.school,
              degree: study.qualification,
              fieldOfStudy: study.subject,
            })),
          })),
      vacancies: {
        liveIds: () =>
          running
            .openings()
            .filter((o) => o.open && o.visibility === 'public')
            .map((o) => o.key)
            .sort(),
        expected: (key: string) => ({ title: opening(key).name, companyName: undefined }),
        retitle: (key: string, name: string) => change(key, { name }),
        close: (key: string) => change(key, { open: false }),
        hide: (key: string) => change(key, { visibility: 'internal' }),
        reopen: (key: string) => change(key, { open: true }),
        remove: (key: string) => change(key, 'remove'),
      },
      totalCalls: () => running.calls(),
      resetCalls: () => running.resetCalls(),
      close: () => running.close(),
    };
    return testSandbox;
  },
};
