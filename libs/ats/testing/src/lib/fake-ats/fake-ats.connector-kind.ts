import {
  CommonConnectorOptionsDto,
  type ConnectorKind,
  type ConnectorKindContext,
} from '@connector/ats-core';
import { FAKE_ATS } from './fake-ats.adapter';
import { FakeAtsConfigDto } from './fake-ats.client-credentials';

/**
 * The throwaway third ATS's connector kind, for tests that show the admin API takes a kind from an adapter
 * folder: `registry.register({ ...fakeAtsAdapter, connectorKind: fakeAtsConnectorKind })` on a registry of
 * the test's own. Without it,
 * `fakeAtsAdapter` is an ATS whose kind is missing (connector-kinds.spec).
 */
export const fakeAtsConnectorKind = (context: ConnectorKindContext): ConnectorKind => ({
  atsType: FAKE_ATS,
  optionsClass: CommonConnectorOptionsDto,
  authorizedByLogin: false,
  setup: {
    flow: 'client-credentials',
    summary: 'Connects with an API key.',
    intro: 'Paste the API key of your Fake ATS account.',
    fields: [
      { name: 'apiKey', in: 'config', label: 'API key', kind: 'secret', required: true },
      {
        name: 'syncIntervalMinutes',
        in: 'options',
        label: 'Minutes between runs',
        kind: 'number',
        required: false,
        default: 15,
      },
    ],
  },
  defaultOptions: () => ({ syncIntervalMinutes: 15, fullSyncEveryHours: 24 }),
  test: async (_accountId, config) => {
    context.validate(FakeAtsConfigDto, config, 'config');
    return { ok: true };
  },
  prepare: async (_accountId, _connectorId, config) => {
    context.validate(FakeAtsConfigDto, config, 'config');
    return {
      status: 'connected',
      config: {},
      options: { syncIntervalMinutes: 15, fullSyncEveryHours: 24 },
      credentialsStored: false,
    };
  },
  changeConfig: async (connector) => ({ config: connector.config, connected: false }),
});
