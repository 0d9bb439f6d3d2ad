import type { AtsTestDriver, TestSandbox } from '@connector/ats-sandbox-core/testing';
import { startAtsBSandbox } from '../index';
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
  async start({ publicUrl, sandbox: options } = {}): Promise<TestSandbox> {
    const running = await startAtsBSandbox(options);
    const { state } = running;
    return {
      url: running.url,
      running,
      serviceEnv: sandbox.serviceEnv?.(running.url, publicUrl) ?? {},
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
      close: () => running.close(),
    };
  },
};
