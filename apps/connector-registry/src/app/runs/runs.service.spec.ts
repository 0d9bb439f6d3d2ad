import { Exchange, RoutingKey } from '@connector/contracts';
import type { MessagePublisher } from '@connector/messaging';
import { RegistryErrorCode } from '../common/registry.exception';
import type { ConnectorEntity } from '../connectors/connector.entity';
import type { ConnectorsService } from '../connectors/connectors.service';
import type { ConnectorRepository } from '../repositories/connector.repository';
import type { RunRepository } from '../repositories/run.repository';
import type { RunEntity } from './run.entity';
import { RunsService } from './runs.service';

const admin = { accountId: 'acct_a', adminId: 'abcdef0123456789' };
const connectorId = '6f1c2f61-2a52-4c4a-9d0b-7f7e0b6a0c11';

describe(RunsService.name, () => {
  let sut: RunsService;
  let connectors: jest.Mocked<Pick<ConnectorsService, 'findOwned'>>;
  let runs: jest.Mocked<Pick<RunRepository, 'insertQueued' | 'updateLocked' | 'insertRecorded'>>;
  let connectorRows: jest.Mocked<Pick<ConnectorRepository, 'findLive'>>;
  let publisher: jest.Mocked<Pick<MessagePublisher, 'publish'>>;

  beforeEach(() => {
    connectors = {
      findOwned: jest.fn().mockResolvedValue({ id: connectorId, accountId: 'acct_a', status: 'connected' }),
    };
    runs = {
      insertQueued: jest.fn().mockResolvedValue({ inserted: true }),
      updateLocked: jest.fn().mockResolvedValue(undefined),
      insertRecorded: jest.fn().mockResolvedValue(true),
    };
    connectorRows = {
      findLive: jest.fn().mockResolvedValue({ id: connectorId, accountId: 'acct_a' } as ConnectorEntity),
    };
    publisher = { publish: jest.fn().mockResolvedValue(undefined) };
    sut = new RunsService(
      connectors as unknown as ConnectorsService,
      runs as unknown as RunRepository,
      publisher as unknown as MessagePublisher,
      connectorRows as unknown as ConnectorRepository,
      { MAX_CONCURRENT_RUNS_PER_ACCOUNT: 4 },
    );
  });

  describe('a run vacancy-sync started by itself (scheduled)', () => {
    const progress = {
      id: 'e1',
      type: RoutingKey.RunProgress,
      version: 1,
      occurredAt: '2026-11-21T10:00:00.000Z',
      accountId: 'acct_a',
      data: {
        connectorId,
        runId: '0b6a7e52-1f0e-4a52-8a51-59bd1f3a0d11',
        status: 'running' as const,
        fetched: 100,
        upserted: 4,
        unchanged: 96,
        apiCalls: 3,
        mode: 'full' as const,
      },
    };

    it('is recorded on its first progress, running, with its counts', async () => {
      runs.updateLocked.mockResolvedValue(null);
      await sut.onProgress(progress);
      expect(runs.insertRecorded).toHaveBeenCalledWith(
        expect.objectContaining({
          id: progress.data.runId,
          status: 'running',
          mode: 'full',
          apiCalls: 3,
          counts: expect.objectContaining({ fetched: 100, upserted: 4 }),
        }),
      );
    });

    it("is not recorded for another account's connector", async () => {
      runs.updateLocked.mockResolvedValue(null);
      await sut.onProgress({ ...progress, accountId: 'acct_b' });
      expect(runs.insertRecorded).not.toHaveBeenCalled();
    });
  });

  it('queues a run and asks for it on the internal exchange', async () => {
    const answer = await sut.start(admin, connectorId, 'full');
    expect(answer).toEqual({ runId: expect.any(String), status: 'queued' });
    expect(runs.insertQueued).toHaveBeenCalledWith(
      expect.objectContaining({ id: answer.runId, status: 'queued' }),
      4,
    );
    expect(publisher.publish).toHaveBeenCalledWith(
      Exchange.Internal,
      expect.objectContaining({
        type: RoutingKey.RunRequested,
        accountId: 'acct_a',
        data: { connectorId, runId: answer.runId, mode: 'full' },
      }),
    );
  });

  it('refuses a connector that is not connected', async () => {
    connectors.findOwned.mockResolvedValue({ status: 'auth_failed' } as ConnectorEntity);
    await expect(sut.start(admin, connectorId)).rejects.toMatchObject({
      code: RegistryErrorCode.ConnectorNotConnected,
    });
    expect(runs.insertQueued).not.toHaveBeenCalled();
  });

  it('answers RUN_IN_PROGRESS with the active run when the unique index refuses a second one', async () => {
    runs.insertQueued.mockResolvedValue({ inserted: false, activeRunId: 'run-1' });
    await expect(sut.start(admin, connectorId)).rejects.toMatchObject({
      code: RegistryErrorCode.RunInProgress,
      details: { runId: 'run-1' },
    });
    expect(publisher.publish).not.toHaveBeenCalled();
  });

  it('answers RUN_LIMIT with a Retry-After when the account has its most runs going', async () => {
    runs.insertQueued.mockResolvedValue({ inserted: false, accountLimit: true });
    await expect(sut.start(admin, connectorId)).rejects.toMatchObject({
      code: RegistryErrorCode.RunLimit,
      details: { limit: 4 },
      retryAfterSeconds: 60,
    });
    expect(publisher.publish).not.toHaveBeenCalled();
  });

  it('fails the run with the reason and answers 503 when the request cannot be published', async () => {
    publisher.publish.mockRejectedValue(new Error('broker unreachable'));
    await expect(sut.start(admin, connectorId)).rejects.toMatchObject({
      code: RegistryErrorCode.DependencyUnavailable,
    });
    const change = runs.updateLocked.mock.calls[0][1];
    const queued = { status: 'queued', errors: [], counts: {}, apiCalls: 0 } as unknown as RunEntity;
    expect(change(queued)).toMatchObject({
      status: 'failed',
      errors: [expect.stringContaining('broker unreachable')],
    });
  });
});
