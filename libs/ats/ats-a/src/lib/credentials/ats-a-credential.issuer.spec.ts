import { OutboundGuard } from '@connector/ats-http';
import type { PostgresDailyQuota } from '@connector/rate-limiter';
import { atsAQuotaKey } from '../budget/ats-a-budget';
import { AtsACredentialIssuer } from './ats-a-credential.issuer';

describe(AtsACredentialIssuer.name, () => {
  const guard = new OutboundGuard({ allowance: 'none' });
  afterAll(() => guard.close());

  it("plans a token request on the connector's account's quota row, the one its workers spend from", async () => {
    const keys: string[] = [];
    // The plan is read before anything is sent: stop there, so no call leaves the test.
    const stop = new Error('stopped before the token request');
    const quota = {
      snapshot: (key: string) => {
        keys.push(key);
        return Promise.reject(stop);
      },
    } as unknown as PostgresDailyQuota;
    const sut = new AtsACredentialIssuer(guard, quota);
    const baseUrl = 'https://ats.example.com';

    await expect(
      sut.renew({ connectorId: 'c1', accountId: 'acct_a', baseUrl, clientId: 'id', secret: 's' }),
    ).rejects.toBe(stop);
    expect(keys).toEqual([atsAQuotaKey({ id: 'c1', accountId: 'acct_a', config: { baseUrl } })]);
    expect(keys[0]).not.toBe(atsAQuotaKey({ id: 'c1', accountId: 'acct_b', config: { baseUrl } }));
  });
});
