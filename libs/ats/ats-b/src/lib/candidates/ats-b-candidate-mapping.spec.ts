import { fullCandidate } from '@connector/testing';
import {
  toAtsBCandidate,
  toAtsBCandidateInsert,
  toAtsBEducation,
  toAtsBWorkHistory,
  yearMonthToEpochMs,
} from './ats-b-candidate-mapping';

const full = fullCandidate();

describe('ATS-B candidate mapping', () => {
  it('maps to ATS-B with the required name, a country id, and status only on insert', () => {
    const fields = toAtsBCandidate(full);
    expect(fields).toEqual({
      firstName: 'Ada',
      lastName: 'Lovelace',
      name: 'Ada Lovelace',
      email: 'ada@example.com',
      phone: '+44 20 1234',
      mobile: null,
      address: {
        address1: '1 Main St',
        address2: null,
        city: 'London',
        state: 'Greater London',
        zip: 'N1',
        countryID: 2359,
      },
      source: 'careers site',
    });
    const insert = toAtsBCandidateInsert(fields);
    expect(insert).toMatchObject({ name: 'Ada Lovelace', status: 'New Lead' });
    expect(insert).not.toHaveProperty('mobile');
  });

  it('leaves out a country it has no ATS-B id for', () => {
    const fields = toAtsBCandidate({ ...full, address: { line1: 'x', countryCode: 'FR' } });
    expect(fields.address).not.toHaveProperty('countryID');
  });

  it('turns YYYY-MM into ATS-B epoch ms (first of the month, UTC) for work history and education', () => {
    expect(yearMonthToEpochMs('2024-02')).toBe(Date.UTC(2024, 1, 1));
    expect(() => yearMonthToEpochMs('2024-2')).toThrow(RangeError);
    expect(() => yearMonthToEpochMs('1987-3')).toThrow(/^(?!.*1987).*YYYY-MM/); // names no candidate's value
    expect(toAtsBWorkHistory(full.workHistory![0])).toEqual({
      companyName: 'Analytical Engines',
      title: 'Programmer',
      startDate: Date.UTC(1842, 0, 1),
      endDate: Date.UTC(1843, 8, 1),
      comments: 'Notes',
    });
    expect(toAtsBWorkHistory(full.workHistory![1]).endDate).toBeNull();
    expect(toAtsBEducation(full.education![0])).toEqual({
      school: 'Home',
      degree: 'BSc',
      major: 'Mathematics',
      startDate: Date.UTC(1830, 0, 1),
      endDate: null,
    });
  });
});
