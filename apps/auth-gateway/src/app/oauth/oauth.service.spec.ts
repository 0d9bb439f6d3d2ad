import { AtsError } from '@connector/ats-clients';
import type { CredentialsService } from '../credentials/credentials.service';
import { OperatorAlert, OperatorAlerts } from '../credentials/operator-alerts';
import type { AtsBOAuthStrategy, StrategyOutcome } from './ats-b-oauth.strategy';
import { OAuthService } from './oauth.service';

describe(OAuthService.name, () => {
  const withOutcome = (outcome: StrategyOutcome, alerts: OperatorAlerts) =>
    new OAuthService(
      { run: async () => outcome } as unknown as AtsBOAuthStrategy,
      {} as CredentialsService,
      [],
      alerts,
    );

  it('alerts the operator when ATS-B refuses the platform’s client at a login, and says the login failed', async () => {
    const alerts = new OperatorAlerts();
    const refused = new AtsError('ATS-B refused the platform’s OAuth client ID or secret', {
      kind: 'auth',
      endpoint: 'POST /oauth/token (authorization_code)',
      status: 401,
      code: 'invalid_client',
    });
    // As passport hands it over: wrapped in an InternalOAuthError.
    const wrapped = Object.assign(new Error('Failed to obtain access token'), { oauthError: refused });
    await expect(
      withOutcome({ kind: 'error', error: wrapped }, alerts).complete('c', 's', 'n'),
    ).rejects.toMatchObject({
      code: 'AUTH_FAILED',
      message: expect.stringMatching(/OAuth client ID or secret/),
    });
    expect(alerts.count(OperatorAlert.OAuthClientRejected)).toBe(1);
  });

  it('raises no alert for a code ATS-B refuses (invalid_grant: the admin starts the login again)', async () => {
    const alerts = new OperatorAlerts();
    const error = new AtsError('code used', {
      kind: 'auth',
      endpoint: 'POST /oauth/token',
      status: 400,
      code: 'invalid_grant',
    });
    await expect(withOutcome({ kind: 'error', error }, alerts).complete('c', 's', 'n')).rejects.toMatchObject(
      {
        code: 'AUTH_FAILED',
      },
    );
    expect(alerts.count(OperatorAlert.OAuthClientRejected)).toBe(0);
  });
});
