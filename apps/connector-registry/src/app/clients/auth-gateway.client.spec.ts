import { atsRegistry } from '@connector/ats-registry';
import { AuthErrorCode, type EventEnvelope, RoutingKey, type SealedSecretDto } from '@connector/contracts';
import { type RpcClient, RpcError } from '@connector/messaging';
import { LOCAL_REQUEST_SEAL_KEYS, RequestSeal } from '@connector/service-kit';
import { AuthGatewayClient } from './auth-gateway.client';

describe(AuthGatewayClient.name, () => {
  const config = { baseUrl: 'https://ats.example.com', clientId: 'id', clientSecret: 'ats-a-client-s3cret' };
  const busy = (retryAfterMs: number) => new RpcError(AuthErrorCode.Busy, 'busy', retryAfterMs);
  const sutWith = (answers: Array<() => Promise<unknown>>, timeoutMs = 5_000) => {
    const request = jest.fn((_request: EventEnvelope) =>
      (answers.shift() ?? (() => Promise.reject(new Error('no more answers'))))(),
    );
    const sut = new AuthGatewayClient(
      { request } as unknown as RpcClient,
      {
        AUTH_GATEWAY_TIMEOUT_MS: timeoutMs,
        REQUEST_SEAL_KEYS: LOCAL_REQUEST_SEAL_KEYS,
      },
      atsRegistry,
    );
    return { sut, request };
  };

  it('asks again after the wait a BUSY answer names, within the request’s time', async () => {
    const { sut, request } = sutWith([
      () => Promise.reject(busy(20)),
      () => Promise.reject(busy(20)),
      () => Promise.resolve({ ok: true }),
    ]);
    await expect(sut.testConnection('ats-a', 'acct_1', config)).resolves.toEqual({ ok: true });
    expect(request).toHaveBeenCalledTimes(3);
  });

  it('gives the BUSY answer back when waiting would pass the request’s time', async () => {
    const { sut, request } = sutWith([() => Promise.reject(busy(10_000))], 2_000);
    await expect(sut.saveCredentials('ats-a', 'acct_1', 'c1', config)).rejects.toMatchObject({
      code: AuthErrorCode.Busy,
    });
    expect(request).toHaveBeenCalledTimes(1);
  });

  it('never repeats a request that failed otherwise', async () => {
    const { sut, request } = sutWith([() => Promise.reject(new RpcError('TIMEOUT', 'no answer'))]);
    await expect(sut.eraseCredentials('acct_1', 'c1')).rejects.toMatchObject({ code: 'TIMEOUT' });
    expect(request).toHaveBeenCalledTimes(1);
  });

  it('sends the client secret sealed for each request, its id and connector, never in clear', async () => {
    const { sut, request } = sutWith([
      () => Promise.reject(busy(20)),
      () => Promise.resolve({ baseUrl: config.baseUrl, openStatuses: ['Open'] }),
      () => Promise.resolve({ ok: true }),
    ]);
    await sut.saveCredentials('ats-a', 'acct_1', 'c1', config);
    await sut.testConnection('ats-a', 'acct_1', config);
    const sent = request.mock.calls.map(
      ([envelope]) => envelope as EventEnvelope<string, Record<string, unknown>>,
    );
    expect(sent.map((e) => e.type)).toEqual([
      RoutingKey.AuthCredentialsSave,
      RoutingKey.AuthCredentialsSave,
      RoutingKey.AuthConnectionTest,
    ]);
    const gateway = RequestSeal.fromEnv(LOCAL_REQUEST_SEAL_KEYS);
    for (const envelope of sent) {
      expect(JSON.stringify(envelope)).not.toContain(config.clientSecret);
      const { clientSecret } = envelope.data['config'] as { clientSecret: SealedSecretDto };
      const connectorId = envelope.data['connectorId'] as string | undefined;
      const scope = { type: envelope.type, accountId: 'acct_1', requestId: envelope.id, connectorId };
      expect(gateway.open(clientSecret, scope)).toBe(config.clientSecret);
    }
    // The retry after BUSY is a request of its own: what was sealed for the first does not open in it.
    const [first, second] = sent as [
      EventEnvelope<string, { config: { clientSecret: SealedSecretDto } }>,
      EventEnvelope,
    ];
    expect(() =>
      gateway.open(first.data.config.clientSecret, {
        type: second.type,
        accountId: 'acct_1',
        requestId: second.id,
        connectorId: 'c1',
      }),
    ).toThrow(/does not open/);
  });
});
