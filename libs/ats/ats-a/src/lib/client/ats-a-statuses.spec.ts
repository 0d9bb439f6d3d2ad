import { describeMissingAtsAStatuses, readAtsAPickList, resolveAtsAStatuses } from './ats-a-statuses';

const dropdown = [
  { Id: 14, Description: 'Draft' },
  { Id: 31, Description: 'Open' },
  { Id: '7', Description: 'Live ' },
  { Id: 3, Description: 'Closed' },
  { Description: 'No id' },
  null,
];

describe(resolveAtsAStatuses.name, () => {
  it('turns names into the ATS ids, ignoring case and spaces, ids as numbers or text', () => {
    expect(resolveAtsAStatuses(['open', ' Live'], dropdown)).toEqual({
      ids: [31, 7],
      missing: [],
      offered: ['Draft', 'Open', 'Live', 'Closed'],
    });
  });

  it('names what the ATS does not offer', () => {
    const result = resolveAtsAStatuses(['Open', 'Advertised'], dropdown);
    expect(result.ids).toEqual([31]);
    expect(result.missing).toEqual(['Advertised']);
    const message = describeMissingAtsAStatuses(result.missing, result.offered);
    expect(message).toContain('“Advertised”');
    expect(message).toContain('It offers: “Draft”, “Open”, “Live”, “Closed”');
  });

  it('reads pick-list values tolerantly', () => {
    expect(readAtsAPickList({ Id: ' 42 ', Description: ' Open ' })).toEqual({ id: 42, description: 'Open' });
    expect(readAtsAPickList(42)).toEqual({ id: 42 });
    expect(readAtsAPickList(null)).toEqual({});
    expect(readAtsAPickList({ Id: null, Description: null })).toEqual({});
  });
});
