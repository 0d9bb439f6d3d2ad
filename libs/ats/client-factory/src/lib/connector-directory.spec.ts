import { type ConnectorSnapshot, createEvent, RoutingKey } from '@connector/contracts';
import { type RabbitConnection, type RpcClient, TransientMessageError } from '@connector/messaging';
import { ConnectorDirectory } from './connector-directory';

function snapshot(version: number, options: Record<string, unknown> = {}): ConnectorSnapshot {
  return {
    id: 'c1',
    accountId: 'acct_1',
    type: 'ats-b',
    name: 'B',
    status: 'connected',
    options,
    config: {},
    mapping: { version: 1, mapping: {} },
    version,
    updatedAt: '2026-11-23T00:00:00.000Z',
  };
}

function changed(version: number) {
  return createEvent(RoutingKey.ConnectorChanged, 'acct_1', { connectorId: 'c1', version });
}

describe(ConnectorDirectory.name, () => {
  let registry: ConnectorSnapshot;
  let requests: number;
  let sut: ConnectorDirectory;

  beforeEach(() => {
    registry = snapshot(2, { sendSmartCv: false });
    requests = 0;
    const rpc = {
      request: jest.fn(async (envelope: { type: string }) => {
        requests++;
        return envelope.type === RoutingKey.ConnectorLookup ? registry : [registry];
      }),
    };
    // The broadcast subscription is not started here (no onModuleInit): `changed` is called directly.
    sut = new ConnectorDirectory(rpc as unknown as RpcClient, {} as RabbitConnection);
  });

  it('makes a failed account lookup transient, so the message waits for the registry', async () => {
    const failing = { request: jest.fn(async () => Promise.reject(new Error('no answer in 5000 ms'))) };
    const directory = new ConnectorDirectory(failing as unknown as RpcClient, {} as RabbitConnection);
    await expect(directory.forAccount('acct_1')).rejects.toThrow(
      new TransientMessageError('connectors of acct_1: no answer in 5000 ms'),
    );
  });

  it('keeps a snapshot for a burst of events', async () => {
    await sut.get('c1', 'acct_1');
    await sut.get('c1', 'acct_1');
    await sut.forAccount('acct_1');
    await sut.forAccount('acct_1');
    expect(requests).toBe(2);
  });

  it('drops the connector and its account on connector.changed', async () => {
    await sut.get('c1', 'acct_1');
    await sut.forAccount('acct_1');
    registry = snapshot(3, { sendSmartCv: true });
    sut.changed(changed(3));
    await expect(sut.get('c1', 'acct_1')).resolves.toMatchObject({ options: { sendSmartCv: true } });
    await expect(sut.forAccount('acct_1')).resolves.toMatchObject([{ options: { sendSmartCv: true } }]);
  });

  it('asks again when an answer is older than a version it has heard of', async () => {
    let answers = 0;
    const rpc = {
      request: jest.fn(async () => (++answers === 1 ? snapshot(2) : snapshot(3, { sendSmartCv: true }))),
    };
    sut = new ConnectorDirectory(rpc as unknown as RpcClient, {} as RabbitConnection);
    sut.changed(changed(3));
    await expect(sut.get('c1', 'acct_1')).resolves.toMatchObject({ version: 3 });
    expect(answers).toBe(2);
  });

  it('asks the registry when told to decide on the connector as it is now', async () => {
    await sut.get('c1', 'acct_1');
    await sut.get('c1', 'acct_1', { fresh: true });
    expect(requests).toBe(2);
  });
});
