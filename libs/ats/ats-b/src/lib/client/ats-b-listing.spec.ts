import { jobOrderListingTerms } from './ats-b.client';
import { ATS_B_JOB_ORDER_FIELDS } from './ats-b.protocol';

describe(jobOrderListingTerms.name, () => {
  const since = new Date(1_763_700_000_000);

  it('asks for open, not deleted jobs by default, modified since the anchor when given (epoch ms)', () => {
    expect(jobOrderListingTerms({})).toEqual(['isOpen:1 AND isDeleted:0']);
    expect(jobOrderListingTerms({ modifiedSince: since })).toEqual([
      'isOpen:1 AND isDeleted:0',
      'dateLastModified:[1763700000000 TO *]',
    ]);
  });

  it('asks for changed jobs whatever their state, so closed and deleted ones are seen too', () => {
    expect(jobOrderListingTerms({ modifiedSince: since, state: 'any' })).toEqual([
      'dateLastModified:[1763700000000 TO *]',
    ]);
  });
});

describe('ATS_B_JOB_ORDER_FIELDS', () => {
  it('names the sub-fields of every to-one association it reads', () => {
    expect(ATS_B_JOB_ORDER_FIELDS.join(',')).toBe(
      'id,title,publicDescription,description,skillList,employmentType,status,isOpen,isPublic,isDeleted,' +
        'dateAdded,dateLastModified,address,clientCorporation(id,name),clientContact(id,firstName,lastName,email,phone)',
    );
  });
});
