import { atsRegistry } from '@connector/ats-registry';
import { FAKE_ATS, fakeAtsAdapter } from '@connector/ats-testing';
import { validateAs } from '../../common/validation';
import { CreateConnectorDto, TestConnectionDto } from './connector-requests.dto';

describe(CreateConnectorDto.name, () => {
  const body = (type: string) => ({ type, name: 'Mine', config: {} });

  it('takes the registered ATS types, and one registered later (a third ATS from its own folder)', () => {
    expect(() => validateAs(CreateConnectorDto, body('ats-a'), 'body')).not.toThrow();
    expect(() => validateAs(CreateConnectorDto, body(FAKE_ATS), 'body')).toThrow();
    atsRegistry.register(fakeAtsAdapter);
    expect(validateAs(CreateConnectorDto, body(FAKE_ATS), 'body').type).toBe(FAKE_ATS);
    expect(validateAs(TestConnectionDto, { type: FAKE_ATS, config: {} }, 'body').type).toBe(FAKE_ATS);
  });

  it('refuses a name no adapter is registered for, listing the registered ones', () => {
    expect(() => validateAs(CreateConnectorDto, body('ats-z'), 'body')).toThrow(
      expect.objectContaining({
        details: {
          fields: [
            {
              field: 'body.type',
              problems: [`type must be one of the following values: ${atsRegistry.types().join(', ')}`],
            },
          ],
        },
      }),
    );
  });
});
