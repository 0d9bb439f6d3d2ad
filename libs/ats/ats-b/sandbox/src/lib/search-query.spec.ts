import { AtsBError } from './ats-b.error';
import { JOB_SEARCH_FIELDS } from './job-order.store';
import { matchesTerm, parseSearchQuery } from './search-query';

describe('parseSearchQuery', () => {
  it('parses AND-joined terms with booleans and an epoch-ms range', () => {
    expect(
      parseSearchQuery(
        'isOpen:1 AND isDeleted:0 AND dateLastModified:[1700000000000 TO *]',
        JOB_SEARCH_FIELDS,
      ),
    ).toEqual([
      { kind: 'bool', field: 'isOpen', value: true },
      { kind: 'bool', field: 'isDeleted', value: false },
      {
        kind: 'range',
        field: 'dateLastModified',
        from: 1700000000000,
        to: null,
        fromInclusive: true,
        toInclusive: true,
      },
    ]);
  });

  it('accepts isPublic as the Integer it is, true/false on Boolean fields, quoted text and exclusive ranges', () => {
    const terms = parseSearchQuery(
      'isPublic:1 and isOpen:true AND status:"Accepting Candidates" AND id:{10 TO 20}',
      JOB_SEARCH_FIELDS,
    );
    expect(terms).toHaveLength(4);
    const get = (f: string): unknown =>
      ({ isPublic: 1, isOpen: true, status: 'accepting candidates', id: 15 })[f];
    expect(terms.every((t) => matchesTerm(t, get))).toBe(true);
    expect(matchesTerm(terms[3]!, () => 10)).toBe(false);
    expect(matchesTerm(terms[0]!, () => 0)).toBe(false);
  });

  it.each([
    '',
    'isPublic:true',
    'isOpen:1 OR isDeleted:0',
    'nope:1',
    'isOpen:maybe',
    'dateLastModified:[a TO b]',
    'isOpen',
  ])('rejects %p', (q) => {
    expect(() => parseSearchQuery(q, JOB_SEARCH_FIELDS)).toThrow(AtsBError);
  });
});
