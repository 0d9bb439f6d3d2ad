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
    const out = projectFields(job, parseFields('title,clientCorporation(name),address(city)', 'JobOrder'), JOB_ORDER_SCHEMA, 'JobOrder');
    expect(Object.keys(out)).toEqual(['id', 'title', 'clientCorporation', 'address']);
    expect(out['clientCorporation']).toEqual({ id: job.clientCorporation.id, name: job.clientCorporation.name });
    expect(out['address']).toEqual({ city: job.address.city });
  });

  it('rejects unknown fields and sub-fields', () => {
    expect(() => projectFields(job, parseFields('id,owner', 'JobOrder'), JOB_ORDER_SCHEMA, 'JobOrder')).toThrow(/Invalid field 'owner'/);
    expect(() => projectFields(job, parseFields('clientCorporation(phone)', 'JobOrder'), JOB_ORDER_SCHEMA, 'JobOrder')).toThrow(AtsBError);
    expect(() => parseFields('id,(title', 'JobOrder')).toThrow(AtsBError);
  });

  it('treats * as every field', () => {
    expect(Object.keys(projectFields(job, parseFields('*', 'JobOrder'), JOB_ORDER_SCHEMA, 'JobOrder'))).toEqual(Object.keys(JOB_ORDER_SCHEMA));
  });
});
