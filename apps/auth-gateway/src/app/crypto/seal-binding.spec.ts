import { associatedDataOf, credentialBinding } from './seal-binding';

describe(associatedDataOf.name, () => {
  const row = { connectorId: 'c1', atsType: 'ats-a', baseUrl: 'https://a.example', clientId: 'client-1' };

  it('is JSON with the format marker first and the fields in a fixed order', () => {
    expect(associatedDataOf(credentialBinding(row, 'secret')).toString()).toBe(
      '{"format":"ats-connector/sealed/2","column":"secret","connectorId":"c1","atsType":"ats-a",' +
        '"baseUrl":"https://a.example","clientId":"client-1"}',
    );
    expect(
      associatedDataOf({ column: 'code_verifier', connectorId: 'c1', stateHash: 'abc' }).toString(),
    ).toBe(
      '{"format":"ats-connector/sealed/2","column":"code_verifier","connectorId":"c1","stateHash":"abc"}',
    );
  });

  it('does not depend on the order the binding was built in', () => {
    const shuffled = {
      clientId: 'client-1',
      baseUrl: 'https://a.example',
      atsType: 'ats-a',
      connectorId: 'c1',
    };
    expect(associatedDataOf(credentialBinding(shuffled, 'access'))).toEqual(
      associatedDataOf(credentialBinding(row, 'access')),
    );
  });

  it('differs for every field, keeps null apart from a string, and cannot be forged by quoting', () => {
    const base = associatedDataOf(credentialBinding(row, 'secret')).toString();
    const variants = [
      credentialBinding({ ...row, connectorId: 'c2' }, 'secret'),
      credentialBinding({ ...row, atsType: 'ats-b' }, 'secret'),
      credentialBinding({ ...row, baseUrl: 'https://a.example/' }, 'secret'),
      credentialBinding({ ...row, baseUrl: null }, 'secret'),
      credentialBinding({ ...row, baseUrl: 'null' }, 'secret'),
      credentialBinding({ ...row, clientId: 'client-2' }, 'secret'),
      credentialBinding(row, 'access'),
      // A value that tries to close its field and open the next one is escaped, not read as structure.
      credentialBinding(
        { ...row, baseUrl: 'https://a.example","clientId":"client-1', clientId: null },
        'secret',
      ),
    ].map((binding) => associatedDataOf(binding).toString());
    expect(new Set([base, ...variants]).size).toBe(variants.length + 1);
  });
});
