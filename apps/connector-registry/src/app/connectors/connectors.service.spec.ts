import { atsRegistry } from '@connector/ats-registry';
import { Exchange, RoutingKey } from '@connector/contracts';
import { RpcError, type MessagePublisher } from '@connector/messaging';
import type { OutboxRelay } from '@connector/persistence';
import type { AuthGatewayClient } from '../clients/auth-gateway.client';
import { RegistryErrorCode } from '../common/registry.exception';
import type { ConnectorRepository } from '../repositories/connector.repository';
import type { JobMappingRepository } from '../repositories/job-mapping.repository';
import type { RunRepository } from '../repositories/run.repository';
import { ConnectorEntity } from './connector.entity';
import { ConnectorsService } from './connectors.service';
import { BudgetService } from '../budget/budget.service';
import { ConnectorKinds } from './kinds/connector-kinds';

const admin = { accountId: 'acct_a', adminId: 'abcdef0123456789' };
const atsAConfig = { baseUrl: 'https://acme.example/api/', clientId: 'client', clientSecret: 's3cret' };

function connector(overrides: Partial<ConnectorEntity> = {}): ConnectorEntity {
  const at = new Date('2026-01-01T00:00:00Z');
  return Object.assign(new ConnectorEntity(), {
    id: '6f1c2f61-2a52-4c4a-9d0b-7f7e0b6a0c11',
    accountId: 'acct_a',
    type: 'ats-b',
    name: 'B',
    status: 'connected',
    statusBeforeDisable: null,
    statusChangedAt: at,
    options: { sendSmartCv: true, syncIntervalMinutes: 15, fullSyncEveryHours: 24 },
    config: { routine: 'api-oauth' },
    createdAt: at,
    updatedAt: at,
    deletedAt: null,
    version: 1,
    ...overrides,
  });
}

describe(ConnectorsService.name, () => {
  let sut: ConnectorsService;
  let connectors: jest.Mocked<
    Pick<
      ConnectorRepository,
      | 'insertWithMapping'
      | 'findOwned'
      | 'findAny'
      | 'updateLocked'
      | 'markDeleted'
      | 'listByAccount'
      | 'countLive'
    >
  >;
  let gateway: jest.Mocked<
    Pick<AuthGatewayClient, 'saveCredentials' | 'eraseCredentials' | 'testConnection'>
  >;
  let publisher: jest.Mocked<Pick<MessagePublisher, 'publish'>>;
  let budget: jest.Mocked<Pick<BudgetService, 'limitChanged'>>;
  let outbox: jest.Mocked<Pick<OutboxRelay, 'wake'>>;

  beforeEach(() => {
    connectors = {
      insertWithMapping: jest.fn().mockResolvedValue('inserted'),
      countLive: jest.fn().mockResolvedValue(0),
      findOwned: jest.fn(),
      findAny: jest.fn().mockResolvedValue(connector({ version: 4 })),
      updateLocked: jest.fn(),
      markDeleted: jest.fn().mockResolvedValue(undefined),
      listByAccount: jest.fn().mockResolvedValue([]),
    };
    gateway = {
      saveCredentials: jest
        .fn()
        .mockResolvedValue({ baseUrl: 'https://acme.example', openStatuses: ['Open', 'Live'] }),
      eraseCredentials: jest.fn().mockResolvedValue(null),
      testConnection: jest.fn().mockResolvedValue({ ok: true }),
    };
    publisher = { publish: jest.fn().mockResolvedValue(undefined) };
    budget = { limitChanged: jest.fn().mockResolvedValue(undefined) };
    outbox = { wake: jest.fn() };
    const runs = { latest: jest.fn().mockResolvedValue(new Map()) };
    const mappings = { current: jest.fn().mockResolvedValue({ version: 3 }) };
    const gatewayClient = gateway as unknown as AuthGatewayClient;
    sut = new ConnectorsService(
      connectors as unknown as ConnectorRepository,
      mappings as unknown as JobMappingRepository,
      runs as unknown as RunRepository,
      new ConnectorKinds(atsRegistry, gatewayClient),
      gatewayClient,
      publisher as unknown as MessagePublisher,
      budget as unknown as BudgetService,
      outbox as unknown as OutboxRelay,
      { MAX_CONNECTORS_PER_ACCOUNT: 3 },
      atsRegistry,
    );
  });

  describe('create', () => {
    it('refuses a connector over the account limit with CONNECTOR_LIMIT, before asking the gateway', async () => {
      connectors.countLive.mockResolvedValue(3);
      await expect(sut.create(admin, { type: 'ats-a', name: 'A', config: atsAConfig })).rejects.toMatchObject(
        {
          code: RegistryErrorCode.ConnectorLimit,
          details: { limit: 3 },
        },
      );
      expect(gateway.saveCredentials).not.toHaveBeenCalled();
      expect(connectors.insertWithMapping).not.toHaveBeenCalled();
    });

    it('erases the stored credentials when another creation took the last place meanwhile', async () => {
      connectors.insertWithMapping.mockResolvedValue('limit');
      await expect(sut.create(admin, { type: 'ats-a', name: 'A', config: atsAConfig })).rejects.toMatchObject(
        {
          code: RegistryErrorCode.ConnectorLimit,
        },
      );
      expect(connectors.insertWithMapping.mock.calls[0]?.[3]).toBe(3);
      expect(gateway.eraseCredentials).toHaveBeenCalled();
    });

    it('saves an ATS-A connector as connected, with only the non-secret config and mapping v1', async () => {
      const view = await sut.create(admin, { type: 'ats-a', name: 'A', config: atsAConfig });
      expect(gateway.saveCredentials).toHaveBeenCalledWith('ats-a', 'acct_a', view.id, atsAConfig, undefined);
      expect(view).toMatchObject({
        status: 'connected',
        config: { baseUrl: 'https://acme.example', clientId: 'client' },
        options: { openStatuses: ['Open', 'Live'], dailyCallLimit: 10_000 },
      });
      expect(JSON.stringify(view)).not.toContain('s3cret');
      const [saved, mapping, createdBy] = connectors.insertWithMapping.mock.calls[0];
      expect(saved.id).toBe(view.id);
      expect(mapping.fields.title).toEqual({ from: 'Title' });
      expect(createdBy).toBe(admin.adminId);
    });

    it('has the gateway check the open statuses given, and keeps them', async () => {
      gateway.saveCredentials.mockResolvedValue({
        baseUrl: 'https://acme.example',
        openStatuses: ['Advertised'],
      });
      const view = await sut.create(admin, {
        type: 'ats-a',
        name: 'A',
        config: atsAConfig,
        options: { openStatuses: ['Advertised'], dailyCallLimit: 500 },
      });
      expect(gateway.saveCredentials).toHaveBeenCalledWith('ats-a', 'acct_a', view.id, atsAConfig, [
        'Advertised',
      ]);
      expect(view.options).toMatchObject({ openStatuses: ['Advertised'], dailyCallLimit: 500 });
    });

    it('saves nothing when the ATS does not offer a configured status, and answers 422 UNKNOWN_STATUSES', async () => {
      gateway.saveCredentials.mockRejectedValue(
        new RpcError('UNKNOWN_STATUSES', 'ATS-A does not offer “Nope”'),
      );
      await expect(
        sut.create(admin, {
          type: 'ats-a',
          name: 'A',
          config: atsAConfig,
          options: { openStatuses: ['Nope'] },
        }),
      ).rejects.toMatchObject({ code: RegistryErrorCode.UnknownStatuses });
      expect(connectors.insertWithMapping).not.toHaveBeenCalled();
    });

    it('saves nothing when the gateway says AUTH_FAILED, and answers 422 with its message', async () => {
      gateway.saveCredentials.mockRejectedValue(
        new RpcError('AUTH_FAILED', 'ATS-A refused the client id or secret'),
      );
      await expect(sut.create(admin, { type: 'ats-a', name: 'A', config: atsAConfig })).rejects.toMatchObject(
        {
          code: RegistryErrorCode.AuthFailed,
          message: 'ATS-A refused the client id or secret',
        },
      );
      expect(connectors.insertWithMapping).not.toHaveBeenCalled();
      expect(gateway.eraseCredentials).not.toHaveBeenCalled();
    });

    it.each([
      ['INVALID_URL', RegistryErrorCode.InvalidUrl],
      ['UNREACHABLE', RegistryErrorCode.AtsUnreachable],
      ['TIMEOUT', RegistryErrorCode.DependencyUnavailable],
      ['NO_RESPONDER', RegistryErrorCode.DependencyUnavailable],
    ])('maps the gateway error %s to %s', async (code, expected) => {
      gateway.saveCredentials.mockRejectedValue(new RpcError(code, 'x'));
      await expect(sut.create(admin, { type: 'ats-a', name: 'A', config: atsAConfig })).rejects.toMatchObject(
        {
          code: expected,
        },
      );
      expect(connectors.insertWithMapping).not.toHaveBeenCalled();
    });

    it('erases the stored credentials when the insert fails after the gateway stored them', async () => {
      connectors.insertWithMapping.mockRejectedValue(new Error('database down'));
      await expect(sut.create(admin, { type: 'ats-a', name: 'A', config: atsAConfig })).rejects.toThrow(
        'database down',
      );
      const connectorId = gateway.saveCredentials.mock.calls[0][2];
      expect(gateway.eraseCredentials).toHaveBeenCalledWith('acct_a', connectorId);
    });

    it('saves an ATS-B connector pending authorization without asking the gateway', async () => {
      const view = await sut.create(admin, {
        type: 'ats-b',
        name: 'B',
        config: { routine: 'api-oauth', sendSmartCv: true },
      });
      expect(view).toMatchObject({ status: 'pending_authorization', config: { routine: 'api-oauth' } });
      expect(view.options).toEqual({
        sendSmartCv: true,
        syncIntervalMinutes: 15,
        fullSyncEveryHours: 24,
        eventPollSeconds: 60,
      });
      expect(gateway.saveCredentials).not.toHaveBeenCalled();
    });

    it('refuses an unknown config field before anything happens', async () => {
      await expect(
        sut.create(admin, { type: 'ats-a', name: 'A', config: { ...atsAConfig, token: 'x' } }),
      ).rejects.toMatchObject({ code: RegistryErrorCode.ValidationFailed });
      expect(gateway.saveCredentials).not.toHaveBeenCalled();
    });
  });

  describe('test', () => {
    it('asks the gateway for ATS-A and passes a refusal on as ok:false', async () => {
      gateway.testConnection.mockRejectedValue(new RpcError('AUTH_FAILED', 'bad secret'));
      await expect(sut.test(admin, { type: 'ats-a', config: atsAConfig })).resolves.toEqual({
        ok: false,
        error: { code: 'AUTH_FAILED', message: 'bad secret' },
      });
    });

    it('tells that ATS-B is tested by logging in', async () => {
      await expect(sut.test(admin, { type: 'ats-b', config: {} })).resolves.toMatchObject({
        ok: false,
        error: { code: 'AUTHORIZATION_REQUIRED' },
      });
    });
  });

  describe('remove', () => {
    it('erases the credentials, marks it deleted and stores the deletion event with it, for the outbox', async () => {
      connectors.findOwned.mockResolvedValue(connector());
      await sut.remove(admin, connector().id);
      expect(gateway.eraseCredentials).toHaveBeenCalledWith('acct_a', connector().id);
      expect(connectors.markDeleted).toHaveBeenCalledWith(connector().id, [
        {
          exchange: Exchange.ConnectorEvents,
          envelope: expect.objectContaining({
            type: RoutingKey.ConnectorStatusChanged,
            accountId: 'acct_a',
            data: { connectorId: connector().id, status: 'disabled', reason: 'deleted' },
          }),
        },
      ]);
      expect(outbox.wake).toHaveBeenCalled();
      // Not published directly: a broker outage at this moment must not lose it.
      const direct = publisher.publish.mock.calls.filter(
        ([, e]) => e.type === RoutingKey.ConnectorStatusChanged,
      );
      expect(direct).toEqual([]);
    });

    it('deletes and stores the event even when auth-gateway cannot be reached for the erase', async () => {
      connectors.findOwned.mockResolvedValue(connector());
      gateway.eraseCredentials.mockRejectedValue(new RpcError('TIMEOUT', 'no answer within 10000 ms'));
      await sut.remove(admin, connector().id);
      expect(connectors.markDeleted).toHaveBeenCalledWith(connector().id, [
        expect.objectContaining({ exchange: Exchange.ConnectorEvents }),
      ]);
    });

    it("is a 404 for another account's connector", async () => {
      connectors.findOwned.mockResolvedValue(null);
      await expect(sut.remove(admin, connector().id)).rejects.toMatchObject({
        code: RegistryErrorCode.NotFound,
      });
      expect(connectors.markDeleted).not.toHaveBeenCalled();
    });
  });

  describe('update', () => {
    it('merges options and refuses an invalid status change', async () => {
      const current = connector({ status: 'pending_authorization' });
      connectors.findOwned.mockResolvedValue(current);
      await expect(sut.update(admin, current.id, { status: 'connected' })).rejects.toMatchObject({
        code: RegistryErrorCode.InvalidStatusChange,
      });
      connectors.updateLocked.mockImplementation(async (_id, change) => {
        const before = connector({ status: 'pending_authorization' });
        return { before, after: change(connector({ status: 'pending_authorization' })) };
      });
      await sut.update(admin, current.id, { options: { syncIntervalMinutes: 5 } });
      const change = connectors.updateLocked.mock.calls[0][1];
      expect(change(connector())!.options).toEqual({
        sendSmartCv: true,
        syncIntervalMinutes: 5,
        fullSyncEveryHours: 24,
      });
      expect(budget.limitChanged).not.toHaveBeenCalled();
    });

    it('merges an ATS-B eventPollSeconds and refuses one outside 5…3600 or not whole, naming it', async () => {
      const current = connector();
      connectors.findOwned.mockResolvedValue(current);
      connectors.updateLocked.mockImplementation(async (_id, change) => ({
        before: current,
        after: change(connector()),
      }));
      for (const bad of [4, 3601, 1.5, '60', null]) {
        await expect(
          sut.update(admin, current.id, { options: { eventPollSeconds: bad } }),
        ).rejects.toMatchObject({
          code: RegistryErrorCode.ValidationFailed,
          details: { fields: [{ field: 'options.eventPollSeconds' }] },
        });
      }
      expect(connectors.updateLocked).not.toHaveBeenCalled();
      await sut.update(admin, current.id, { options: { eventPollSeconds: 5 } });
      const change = connectors.updateLocked.mock.calls[0][1];
      expect(change(connector())!.options).toMatchObject({ sendSmartCv: true, eventPollSeconds: 5 });
    });

    it('tells the daily-quota plan at once when an operator changes the daily limit', async () => {
      const current = connector({
        type: 'ats-a',
        options: { dailyCallLimit: 10_000 },
        config: { baseUrl: 'https://acme.example' },
      });
      connectors.findOwned.mockResolvedValue(current);
      connectors.updateLocked.mockImplementation(async (_id, change) => ({
        before: current,
        after: change({ ...current }),
      }));
      await sut.update(admin, current.id, { options: { dailyCallLimit: 300 } });
      expect(budget.limitChanged).toHaveBeenCalledWith(
        expect.objectContaining({ options: { dailyCallLimit: 300 } }),
      );
    });
  });

  describe('update with new ATS-A credentials (the gateway stores them before the row changes)', () => {
    const atsA = (overrides: Partial<ConnectorEntity> = {}) =>
      connector({
        type: 'ats-a',
        options: { dailyCallLimit: 10_000 },
        config: { baseUrl: 'https://acme.example', clientId: 'client' },
        ...overrides,
      });
    const newSecret = { config: { clientId: 'client2', clientSecret: 'n3w' } };

    it('refuses a status change it can refuse before the gateway is asked', async () => {
      connectors.findOwned.mockResolvedValue(atsA({ status: 'auth_failed' }));
      await expect(sut.update(admin, atsA().id, { ...newSecret, status: 'connected' })).rejects.toMatchObject(
        {
          code: RegistryErrorCode.InvalidStatusChange,
        },
      );
      await expect(
        sut.update(admin, atsA().id, { config: { clientSecret: 'n3w', colour: 1 } }),
      ).rejects.toMatchObject({ code: RegistryErrorCode.ValidationFailed });
      expect(gateway.saveCredentials).not.toHaveBeenCalled();
      expect(connectors.updateLocked).not.toHaveBeenCalled();
    });

    it('erases the new credentials again when the connector was deleted meanwhile (404)', async () => {
      connectors.findOwned.mockResolvedValue(atsA());
      connectors.updateLocked.mockResolvedValue(null);
      await expect(sut.update(admin, atsA().id, newSecret)).rejects.toMatchObject({
        code: RegistryErrorCode.NotFound,
      });
      expect(gateway.saveCredentials).toHaveBeenCalled();
      expect(gateway.eraseCredentials).toHaveBeenCalledWith('acct_a', atsA().id);
    });

    it('keeps the row in step with the gateway when the status changed meanwhile: config saved, 409', async () => {
      // Checked as disabled (was connected): enabling is fine. In the lock it is auth_failed by then, reported
      // after this request began (so the gateway's "connected" for the new credentials is older and ignored).
      connectors.findOwned.mockResolvedValue(atsA({ status: 'disabled', statusBeforeDisable: 'connected' }));
      const meanwhile = () => atsA({ status: 'auth_failed', statusChangedAt: new Date(Date.now() + 60_000) });
      let saved: ConnectorEntity | undefined;
      connectors.updateLocked.mockImplementation(async (_id, change) => {
        saved = change(meanwhile());
        return { before: meanwhile(), after: saved };
      });
      const refused = await sut
        .update(admin, atsA().id, { ...newSecret, name: 'renamed', status: 'connected' })
        .catch((e: unknown) => e);
      expect(refused).toMatchObject({
        code: RegistryErrorCode.InvalidStatusChange,
        message: expect.stringContaining('the other changes were saved'),
      });
      expect(saved).toMatchObject({
        name: 'renamed',
        config: { clientId: 'client2' },
        status: 'auth_failed',
      });
    });
  });

  describe('announceChange', () => {
    it('tells every worker on the internal exchange, with the version of connector and mapping', async () => {
      await sut.announceChange(connector().id);
      expect(publisher.publish).toHaveBeenCalledWith(
        Exchange.Internal,
        expect.objectContaining({
          type: RoutingKey.ConnectorChanged,
          accountId: 'acct_a',
          data: { connectorId: connector().id, version: 7 },
        }),
      );
    });

    it('follows every admin change: options, status, deletion', async () => {
      connectors.findOwned.mockResolvedValue(connector());
      connectors.updateLocked.mockImplementation(async (_id, change) => ({
        before: connector(),
        after: change(connector()),
      }));
      await sut.update(admin, connector().id, { options: { sendSmartCv: false } });
      await sut.update(admin, connector().id, { status: 'disabled' });
      await sut.remove(admin, connector().id);
      const changed = publisher.publish.mock.calls.filter(([, e]) => e.type === RoutingKey.ConnectorChanged);
      expect(changed).toHaveLength(3);
    });
  });
});
