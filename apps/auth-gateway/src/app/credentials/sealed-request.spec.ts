import { randomUUID } from 'node:crypto';
import { AuthErrorCode, createEvent, RoutingKey } from '@connector/contracts';
import { atsAAdapter } from '@connector/ats-a';
import { LOCAL_REQUEST_SEAL_KEYS, RequestSeal } from '@connector/service-kit';
import { GatewayError } from './gateway.error';
import { openSealedConfig } from './sealed-request';

describe(openSealedConfig.name, () => {
  const seal = RequestSeal.fromEnv(LOCAL_REQUEST_SEAL_KEYS);
  const setup = atsAAdapter.clientCredentials;
  const saveRequest = (
    sealedFor: { accountId: string; connectorId: string },
    connectorId = sealedFor.connectorId,
  ) => {
    const id = randomUUID();
    const type = RoutingKey.AuthCredentialsSave;
    const clientSecret = seal.seal('s3cret', { type, requestId: id, ...sealedFor });
    return createEvent(
      type,
      'acct_a',
      {
        connectorId,
        type: 'ats-a' as const,
        config: { baseUrl: 'https://a.example', clientId: 'id', clientSecret },
      },
      { id },
    );
  };

  it('opens the client secret sealed for this request', () => {
    expect(openSealedConfig(seal, saveRequest({ accountId: 'acct_a', connectorId: 'c1' }), setup)).toEqual({
      baseUrl: 'https://a.example',
      clientId: 'id',
      clientSecret: 's3cret',
    });
  });

  it('refuses, INVALID_SEAL, one sealed for another connector or account', () => {
    for (const request of [
      saveRequest({ accountId: 'acct_a', connectorId: 'c1' }, 'c2'),
      saveRequest({ accountId: 'acct_b', connectorId: 'c1' }),
    ]) {
      let error: unknown;
      try {
        openSealedConfig(seal, request, setup);
      } catch (caught) {
        error = caught;
      }
      expect(error).toBeInstanceOf(GatewayError);
      expect(error).toMatchObject({
        code: AuthErrorCode.InvalidSeal,
        message: expect.stringMatching(/REQUEST_SEAL_KEYS/),
      });
      expect((error as Error).message).not.toContain('s3cret');
    }
  });

  it('refuses, INVALID_REQUEST, a secret field in clear or not a seal, and a config the adapter’s class refuses', () => {
    const request = (config: Record<string, unknown>) =>
      createEvent(RoutingKey.AuthCredentialsSave, 'acct_a', { connectorId: 'c1', type: 'ats-a', config });
    const refusal = (config: Record<string, unknown>) => {
      try {
        openSealedConfig(seal, request(config), setup);
      } catch (error) {
        return error;
      }
      return undefined;
    };
    const base = { baseUrl: 'https://a.example', clientId: 'id' };
    for (const clientSecret of ['hunter2', { v: 2, kid: 'k1', iv: 'x', tag: 'not base64!', data: 'x' }]) {
      const error = refusal({ ...base, clientSecret });
      expect(error).toBeInstanceOf(GatewayError);
      expect(error).toMatchObject({
        code: AuthErrorCode.InvalidRequest,
        message: 'config.clientSecret must be sealed (REQUEST_SEAL_KEYS), never sent in clear',
      });
      expect((error as Error).message).not.toContain('hunter2');
    }
    const id = randomUUID();
    const sealedFor = {
      type: RoutingKey.AuthCredentialsSave,
      requestId: id,
      accountId: 'acct_a',
      connectorId: 'c1',
    };
    const withoutClientId = createEvent(
      RoutingKey.AuthCredentialsSave,
      'acct_a',
      {
        connectorId: 'c1',
        type: 'ats-a',
        config: { baseUrl: 'https://a.example', clientSecret: seal.seal('s3cret', sealedFor) },
      },
      { id },
    );
    expect(() => openSealedConfig(seal, withoutClientId, setup)).toThrow(
      expect.objectContaining({
        code: AuthErrorCode.InvalidRequest,
        message: expect.stringMatching(/^config\.clientId /),
      }),
    );
  });
});
