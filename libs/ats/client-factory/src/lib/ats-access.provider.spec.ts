import { atsRegistry, atsRegistryProvider } from '@connector/ats-registry';
import { type AtsAccess, createEvent, RoutingKey } from '@connector/contracts';
import { Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { RabbitConnection, RpcClient, RpcError } from '@connector/messaging';
import { AtsAccessProvider } from './ats-access.provider';
import { ConnectorDirectory } from './connector-directory';

describe(AtsAccessProvider.name, () => {
  let answer: AtsAccess;
  let rpc: { request: jest.Mock };
  let directory: ConnectorDirectory;
  let sut: AtsAccessProvider;

  function atsA(baseUrl: string, accessToken: string): AtsAccess {
    return {
      type: 'ats-a',
      baseUrl,
      accessToken,
      expiresAt: new Date(Date.now() + 58 * 60_000).toISOString(),
    } as AtsAccess;
  }

  beforeEach(() => {
    answer = atsA('https://old-tenant.example.com', 'old-token');
    rpc = { request: jest.fn(async () => ({ ...answer })) };
    // The broadcast subscription is not started here (no onModuleInit): `changed` is called directly.
    directory = new ConnectorDirectory(rpc as unknown as RpcClient, {} as RabbitConnection);
    sut = new AtsAccessProvider(rpc as unknown as RpcClient, atsRegistry, directory);
  });

  it('keeps the access of a connector until it expires', async () => {
    await sut.access('c1', 'acct_1');
    await sut.access('c1', 'acct_1');
    expect(rpc.request).toHaveBeenCalledTimes(1);
  });

  it('asks the gateway again after connector.changed: the new tenant and key, not the kept ones', async () => {
    await expect(sut.access('c1', 'acct_1')).resolves.toMatchObject({ accessToken: 'old-token' });
    // An admin moves the connector to another tenant; the registry broadcasts the change.
    answer = atsA('https://new-tenant.example.com', 'new-token');
    directory.changed(createEvent(RoutingKey.ConnectorChanged, 'acct_1', { connectorId: 'c1', version: 2 }));
    await expect(sut.access('c1', 'acct_1')).resolves.toMatchObject({
      baseUrl: 'https://new-tenant.example.com',
      accessToken: 'new-token',
    });
    expect(rpc.request).toHaveBeenCalledTimes(2);
  });

  it('keeps the access of other connectors on a change', async () => {
    await sut.access('c1', 'acct_1');
    await sut.access('c2', 'acct_1');
    directory.changed(createEvent(RoutingKey.ConnectorChanged, 'acct_1', { connectorId: 'c1', version: 2 }));
    await sut.access('c2', 'acct_1');
    expect(rpc.request).toHaveBeenCalledTimes(2);
  });

  it('is told of changes by the ConnectorDirectory it is provided with (as in AtsAccessModule)', async () => {
    // No broker here: the directory's subscription is not started.
    class QuietDirectory extends ConnectorDirectory {
      override async onModuleInit(): Promise<void> {
        return undefined;
      }
    }
    @Module({
      providers: [
        { provide: ConnectorDirectory, useClass: QuietDirectory },
        AtsAccessProvider,
        atsRegistryProvider,
        { provide: RpcClient, useValue: rpc },
        { provide: RabbitConnection, useValue: {} },
      ],
    })
    class WiringModule {}
    const app = await NestFactory.createApplicationContext(WiringModule, { logger: false });
    try {
      const provider = app.get(AtsAccessProvider);
      await provider.access('c1', 'acct_1');
      app
        .get(ConnectorDirectory)
        .changed(createEvent(RoutingKey.ConnectorChanged, 'acct_1', { connectorId: 'c1', version: 2 }));
      await provider.access('c1', 'acct_1');
      expect(rpc.request).toHaveBeenCalledTimes(2);
    } finally {
      await app.close();
    }
  });

  it("answers a connector's next requests with the gateway's BUSY for its wait, without asking again", async () => {
    const busy = Object.assign(new RpcError('BUSY', 'every renewal slot is taken'), { retryAfterMs: 60_000 });
    rpc.request.mockRejectedValueOnce(busy);
    await expect(sut.access('c1', 'acct_1')).rejects.toBe(busy);
    await expect(sut.access('c1', 'acct_1')).rejects.toBe(busy);
    expect(rpc.request).toHaveBeenCalledTimes(1);
    // Another connector is asked for as usual.
    await expect(sut.access('c2', 'acct_1')).resolves.toMatchObject({ accessToken: 'old-token' });
  });

  it('asks again at once after an answer that is no refusal to wait', async () => {
    rpc.request.mockRejectedValueOnce(new RpcError('ATS_ERROR', 'the ATS answered 500'));
    await expect(sut.access('c1', 'acct_1')).rejects.toMatchObject({ code: 'ATS_ERROR' });
    await expect(sut.access('c1', 'acct_1')).resolves.toMatchObject({ accessToken: 'old-token' });
  });
});
