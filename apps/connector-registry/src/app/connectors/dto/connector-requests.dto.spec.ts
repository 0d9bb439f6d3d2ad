import { AtsRegistry } from '@connector/ats-core';
import { ATS_ADAPTERS } from '@connector/ats-registry';
import { FAKE_ATS, fakeAtsAdapter } from '@connector/ats-testing';
import { createValidationPipe, validateAs } from '../../common/validation';
import { CreateConnectorDto, TestConnectionDto } from './connector-requests.dto';

describe(CreateConnectorDto.name, () => {
  const body = (type: string) => ({ type, name: 'Mine', config: {} });
  const product = new AtsRegistry(ATS_ADAPTERS);

  it('takes the types of the registry it is validated against (a third ATS from its own folder)', () => {
    expect(() => validateAs(CreateConnectorDto, body('ats-a'), 'body', product)).not.toThrow();
    expect(() => validateAs(CreateConnectorDto, body(FAKE_ATS), 'body', product)).toThrow();
    const withFake = new AtsRegistry([...ATS_ADAPTERS, fakeAtsAdapter]);
    expect(validateAs(CreateConnectorDto, body(FAKE_ATS), 'body', withFake).type).toBe(FAKE_ATS);
    expect(validateAs(TestConnectionDto, { type: FAKE_ATS, config: {} }, 'body', withFake).type).toBe(
      FAKE_ATS,
    );
    // Without one: the product's registry, which the fake is not in.
    expect(() => validateAs(CreateConnectorDto, body(FAKE_ATS), 'body')).toThrow();
  });

  it("is checked by the admin API's validation pipe against the registry the pipe was given", async () => {
    const metadata = { type: 'body', metatype: CreateConnectorDto } as const;
    const withFake = createValidationPipe(new AtsRegistry([...ATS_ADAPTERS, fakeAtsAdapter]));
    await expect(withFake.transform(body(FAKE_ATS), metadata)).resolves.toMatchObject({ type: FAKE_ATS });
    await expect(createValidationPipe(product).transform(body(FAKE_ATS), metadata)).rejects.toMatchObject({
      details: { fields: [{ field: 'type', problems: [expect.stringContaining('ats-a, ats-b')] }] },
    });
  });

  it('refuses a name no adapter is registered for, listing the registered ones', () => {
    expect(() => validateAs(CreateConnectorDto, body('ats-z'), 'body', product)).toThrow(
      expect.objectContaining({
        details: {
          fields: [
            {
              field: 'body.type',
              problems: [`type must be one of the following values: ${product.types().join(', ')}`],
            },
          ],
        },
      }),
    );
  });
});
