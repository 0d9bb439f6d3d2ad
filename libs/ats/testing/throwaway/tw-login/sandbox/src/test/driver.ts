import type { AtsTestDriver, TestSandbox } from '@connector/ats-sandbox-core/testing';
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
  async start(): Promise<TestSandbox> {
    const running = await startTwLoginSandbox({
      port: 0,
      host: '127.0.0.1',
      client: { ...CLIENT, redirectUris: [DEMO_CALLBACK] },
      users: [RECRUITER],
      openings: 10,
    });
    const serviceEnv = {
      ...(sandbox.serviceEnv?.(running.url) ?? {}),
      TW_LOGIN_CLIENT_ID: CLIENT.clientId,
      TW_LOGIN_CLIENT_SECRET: CLIENT.clientSecret,
    };
    return {
      url: running.url,
      running,
      serviceEnv,
      async connect(gateway) {
        await gateway.authorize((authorizeUrl) => signIn(authorizeUrl, RECRUITER));
        return {};
      },
      candidates: (email) =>
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
      close: () => running.close(),
    };
  },
};
