import type { VacancyEventFeedStatus } from '@connector/contracts';
import { RpcError } from '@connector/messaging';
import type { VacancySyncClient } from '../clients/vacancy-sync.client';
import { RegistryErrorCode, RegistryException } from '../common/registry.exception';
import type { ConnectorEntity } from './connector.entity';
import type { ConnectorsService } from './connectors.service';
import { EventFeedService } from './event-feed.service';

const admin = { accountId: 'acct_a', adminId: 'abcdef0123456789' };
const ID = '6f1c2f61-2a52-4c4a-9d0b-7f7e0b6a0c11';

describe(EventFeedService.name, () => {
  let sut: EventFeedService;
  let connectors: jest.Mocked<Pick<ConnectorsService, 'findOwned'>>;
  let vacancySync: jest.Mocked<Pick<VacancySyncClient, 'eventFeed'>>;

  beforeEach(() => {
    connectors = { findOwned: jest.fn().mockResolvedValue({ id: ID } as ConnectorEntity) };
    vacancySync = { eventFeed: jest.fn() };
    sut = new EventFeedService(
      connectors as unknown as ConnectorsService,
      vacancySync as unknown as VacancySyncClient,
    );
  });

  it("asks vacancy-sync for the admin's own connector and answers its status", async () => {
    vacancySync.eventFeed.mockResolvedValue({
      connectorId: ID,
      mode: 'events',
      pollSeconds: 60,
      lastReadAt: '2026-11-28T04:00:00.000Z',
      lastEventAt: '2026-11-28T03:59:00.000Z',
      since: '2026-11-27T00:00:00.000Z',
    });
    await expect(sut.get(admin, ID)).resolves.toEqual({
      connectorId: ID,
      mode: 'events',
      pollSeconds: 60,
      lastReadAt: '2026-11-28T04:00:00.000Z',
      lastEventAt: '2026-11-28T03:59:00.000Z',
      since: '2026-11-27T00:00:00.000Z',
    });
    expect(connectors.findOwned).toHaveBeenCalledWith(admin, ID);
    expect(vacancySync.eventFeed).toHaveBeenCalledWith('acct_a', ID);
  });

  it('keeps only the documented fields: polling with its reason, no stray or malformed ones', async () => {
    vacancySync.eventFeed.mockResolvedValue({
      connectorId: 'another',
      mode: 'polling',
      reason: 'the subscription expired',
      lastReadAt: 'yesterday',
      secret: 'x',
    } as VacancyEventFeedStatus);
    await expect(sut.get(admin, ID)).resolves.toEqual({
      connectorId: ID,
      mode: 'polling',
      reason: 'the subscription expired',
    });
  });

  it('answers 404 for a connector not of the account without asking vacancy-sync', async () => {
    connectors.findOwned.mockRejectedValue(RegistryException.notFound());
    await expect(sut.get(admin, ID)).rejects.toMatchObject({ code: RegistryErrorCode.NotFound });
    expect(vacancySync.eventFeed).not.toHaveBeenCalled();
  });

  it('answers 503 naming vacancy-sync when it does not answer in time', async () => {
    vacancySync.eventFeed.mockRejectedValue(new RpcError('TIMEOUT', 'no answer within 1000 ms'));
    await expect(sut.get(admin, ID)).rejects.toMatchObject({
      code: RegistryErrorCode.DependencyUnavailable,
      message: 'vacancy-sync did not answer in time; try again in a moment',
    });
  });

  it('answers 503 when vacancy-sync answers something that is no event feed status', async () => {
    vacancySync.eventFeed.mockResolvedValue({
      connectorId: ID,
      mode: 'webhooks',
    } as unknown as VacancyEventFeedStatus);
    await expect(sut.get(admin, ID)).rejects.toMatchObject({
      code: RegistryErrorCode.DependencyUnavailable,
      details: { service: 'vacancy-sync' },
    });
  });
});
