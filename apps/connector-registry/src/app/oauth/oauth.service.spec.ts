import type { AuthGatewayClient } from '../clients/auth-gateway.client';
import type { ConnectorKinds } from '../connectors/kinds/connector-kinds';
import type { ConnectorsService } from '../connectors/connectors.service';
import { OAuthService } from './oauth.service';

describe(OAuthService.name, () => {
  // An error response is refused before anything is looked up: no collaborator is called.
  const sut = new OAuthService({} as ConnectorsService, {} as ConnectorKinds, {} as AuthGatewayClient);

  it('refuses a callback that carries an error, even an empty one, whatever else it carries', async () => {
    for (const error of ['access_denied', '']) {
      expect(await sut.complete({ code: 'c', state: 's', nonce: 'n', error })).toMatchObject({
        ok: false,
        status: 400,
        title: 'The ATS did not authorize the connection',
      });
    }
  });

  it('has the refresh token of a login that completed after its connector was deleted erased', async () => {
    const erased: Array<[string, string]> = [];
    const late = new OAuthService(
      {
        markAuthorized: async () => false,
        eraseAfterLateLogin: async (accountId: string, connectorId: string) =>
          void erased.push([accountId, connectorId]),
      } as unknown as ConnectorsService,
      {} as ConnectorKinds,
      {
        completeAuthorization: async () => ({ accountId: 'acct_1', connectorId: 'conn-1' }),
      } as unknown as AuthGatewayClient,
    );
    expect(await late.complete({ code: 'c', state: 's', nonce: 'n' })).toMatchObject({
      ok: false,
      title: 'The connector no longer exists',
    });
    expect(erased).toEqual([['acct_1', 'conn-1']]);
  });
});
