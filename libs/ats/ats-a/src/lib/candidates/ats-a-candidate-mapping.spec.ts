import { fullCandidate } from '@connector/testing';
import { toAtsACandidate } from './ats-a-candidate-mapping';

const full = fullCandidate();

describe('ATS-A candidate mapping', () => {
  it('maps a platform candidate to ATS-A with history inline and every field present', () => {
    expect(toAtsACandidate(full)).toEqual({
      FirstName: 'Ada',
      Surname: 'Lovelace',
      Email: 'ada@example.com',
      Telephone: '+44 20 1234',
      Mobile: null,
      Address: {
        Address1: '1 Main St',
        Address2: null,
        Town: 'London',
        County: 'Greater London',
        PostCode: 'N1',
        Country: 'GB',
      },
      EmploymentHistory: [
        {
          Employer: 'Analytical Engines',
          JobTitle: 'Programmer',
          StartDate: '1842-01',
          EndDate: '1843-09',
          Description: 'Notes',
        },
        // a current job has no end date, whatever the platform sent
        {
          Employer: 'Royal Society',
          JobTitle: 'Fellow',
          StartDate: '1850-03',
          EndDate: null,
          Description: null,
        },
      ],
      Education: [
        {
          Establishment: 'Home',
          Qualification: 'BSc',
          Subject: 'Mathematics',
          StartDate: '1830-01',
          EndDate: null,
        },
      ],
    });
  });
});
