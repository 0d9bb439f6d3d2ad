import { AuthErrorCode } from '@connector/contracts';
import { type RpcClient, RpcError } from '@connector/messaging';
import { AuthGatewayClient } from './auth-gateway.client';

describe(AuthGatewayClient.name, () => {
  const config = { baseUrl: 'https://ats.example.com', clientId: 'id', clientSecret: 'secret' };
  const busy = (retryAfterMs: number) => new RpcError(AuthErrorCode.Busy, 'busy', retryAfterMs);
  const sutWith = (answers: Array<() => Promise<unknown>>, timeoutMs = 5_000) => {
    const request = jest.fn(() =>
      (answers.shift() ?? (() => Promise.reject(new Error('no more answers'))))(),
    );
    const sut = new AuthGatewayClient({ request } as unknown as RpcClient, {
      AUTH_GATEWAY_TIMEOUT_MS: timeoutMs,
    });
    return { sut, request };
  };

  it('asks again after the wait a BUSY answer names, within the request’s time', async () => {
    const { sut, request } = sutWith([
      () => Promise.reject(busy(20)),
      () => Promise.reject(busy(20)),
      () => Promise.resolve({ ok: true }),
    ]);
    await expect(sut.testConnection('acct_1', config)).resolves.toEqual({ ok: true });
    expect(request).toHaveBeenCalledTimes(3);
  });

  it('gives the BUSY answer back when waiting would pass the request’s time', async () => {
    const { sut, request } = sutWith([() => Promise.reject(busy(10_000))], 2_000);
    await expect(sut.saveCredentials('acct_1', 'c1', config)).rejects.toMatchObject({
      code: AuthErrorCode.Busy,
    });
    expect(request).toHaveBeenCalledTimes(1);
  });

  it('never repeats a request that failed otherwise', async () => {
    const { sut, request } = sutWith([() => Promise.reject(new RpcError('TIMEOUT', 'no answer'))]);
    await expect(sut.eraseCredentials('acct_1', 'c1')).rejects.toMatchObject({ code: 'TIMEOUT' });
    expect(request).toHaveBeenCalledTimes(1);
  });
});
