import { AtsBError } from './ats-b.error';
import { parseFields, projectFields } from './field-selection';
import { JOB_ORDER_SCHEMA } from './job-order.routes';
import { JobOrderGenerator } from './job-order.generator';

describe('field selection', () => {
  const job = new JobOrderGenerator(10, 7).generate(3);

  it('requires fields', () => {
    expect(() => parseFields(undefined, 'JobOrder')).toThrow(AtsBError);
    expect(() => parseFields('', 'JobOrder')).toThrow(/required/);
  });

  it('always returns id and supports nested sub-selection', () => {
    const out = projectFields(
      job,
      parseFields('title,clientCorporation(name),address(city)', 'JobOrder'),
      JOB_ORDER_SCHEMA,
      'JobOrder',
    );
    expect(Object.keys(out)).toEqual(['id', 'title', 'clientCorporation', 'address']);
    expect(out['clientCorporation']).toEqual({
      id: job.clientCorporation?.id,
      name: job.clientCorporation?.name,
    });
    expect(out['address']).toEqual({ city: job.address?.city });
  });

  it('answers a to-one association with its id only unless sub-fields are asked; an embedded address whole', () => {
    const record = {
      id: 5,
      clientCorporation: { id: 9, name: 'Acme' },
      address: { city: 'Leeds', countryID: 2359 },
    };
    const out = projectFields(
      record,
      parseFields('clientCorporation,address', 'JobOrder'),
      JOB_ORDER_SCHEMA,
      'JobOrder',
    );
    expect(out).toEqual({ id: 5, clientCorporation: { id: 9 }, address: { city: 'Leeds', countryID: 2359 } });
  });

  it('sends a null field as null and leaves out a field the record does not hold', () => {
    const record = { id: 5, title: null, clientContact: { id: 3, firstName: 'Ann', email: null } };
    const out = projectFields(
      record,
      parseFields('title,skillList,clientContact(firstName,lastName,email)', 'JobOrder'),
      JOB_ORDER_SCHEMA,
      'JobOrder',
    );
    expect(out).toEqual({ id: 5, title: null, clientContact: { id: 3, firstName: 'Ann', email: null } });
  });

  it('rejects unknown fields and sub-fields', () => {
    expect(() =>
      projectFields(job, parseFields('id,owner', 'JobOrder'), JOB_ORDER_SCHEMA, 'JobOrder'),
    ).toThrow(/Invalid field 'owner'/);
    expect(() =>
      projectFields(job, parseFields('clientCorporation(phone)', 'JobOrder'), JOB_ORDER_SCHEMA, 'JobOrder'),
    ).toThrow(AtsBError);
    expect(() => parseFields('id,(title', 'JobOrder')).toThrow(AtsBError);
  });

  it('treats * as every field the record holds', () => {
    const full = { ...job, title: 'x', address: {}, clientCorporation: { id: 1 }, clientContact: null };
    const keys = Object.keys(projectFields(full, parseFields('*', 'JobOrder'), JOB_ORDER_SCHEMA, 'JobOrder'));
    expect(keys.every((k) => k in JOB_ORDER_SCHEMA)).toBe(true);
    expect(keys).toEqual(
      expect.arrayContaining([
        'id',
        'title',
        'isOpen',
        'isPublic',
        'isDeleted',
        'dateLastModified',
        'clientContact',
      ]),
    );
  });
});
