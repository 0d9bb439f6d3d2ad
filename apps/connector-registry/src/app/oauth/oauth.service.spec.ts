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
});
