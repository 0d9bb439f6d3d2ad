import { AtsRegistry } from '@connector/ats-core';
import { atsRegistry } from '@connector/ats-registry';
import { FAKE_ATS, fakeAtsAdapter, fakeAtsConnectorKind } from '@connector/ats-testing';
import type { AuthGatewayClient } from '../clients/auth-gateway.client';
import { ConnectorTypesController } from './connector-types.controller';
import { ConnectorKinds } from './kinds/connector-kinds';

describe(ConnectorTypesController.name, () => {
  // The product's adapters, in a registry of the test's own (a third ATS joins it below).
  const registry = new AtsRegistry(atsRegistry.all());
  const sut = new ConnectorTypesController(registry, new ConnectorKinds(registry, {} as AuthGatewayClient));

  it("lists every registered ATS with its adapter's set-up flow and form", () => {
    const { types } = sut.list();
    expect(types.map((t) => t.type)).toEqual(atsRegistry.types());
    const [atsA, atsB] = types;
    expect(atsA).toMatchObject({ label: 'ATS-A', flow: 'client-credentials' });
    expect(atsA.fields.map((f) => [f.name, f.in, f.kind, f.required])).toEqual([
      ['baseUrl', 'config', 'url', true],
      ['clientId', 'config', 'text', true],
      ['clientSecret', 'config', 'secret', true],
    ]);
    expect(atsB).toMatchObject({ label: 'ATS-B', flow: 'interactive-login' });
    expect(atsB.fields.find((f) => f.name === 'sendSmartCv')).toMatchObject({
      kind: 'boolean',
      default: false,
    });
  });

  it('lists a third ATS registered from its own folder, its form as its adapter declares it', () => {
    registry.register({ ...fakeAtsAdapter, connectorKind: fakeAtsConnectorKind });
    const fake = sut.list().types.find((t) => t.type === FAKE_ATS);
    expect(fake).toEqual({
      type: FAKE_ATS,
      label: 'Fake ATS',
      capabilities: ['vacancies', 'candidates'],
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
    });
  });
});
