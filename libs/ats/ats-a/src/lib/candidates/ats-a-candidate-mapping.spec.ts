import type { CandidateDataDto } from '@connector/contracts';
import { toAtsACandidate } from './ats-a-candidate-mapping';

const full: CandidateDataDto = {
  candidateId: 'c1',
  firstName: 'Ada',
  lastName: 'Lovelace',
  email: 'ada@example.com',
  phone: '+44 20 1234',
  address: {
    line1: '1 Main St',
    city: 'London',
    region: 'Greater London',
    postalCode: 'N1',
    countryCode: 'GB',
  },
  workHistory: [
    {
      employer: 'Analytical Engines',
      title: 'Programmer',
      startDate: '1842-01',
      endDate: '1843-09',
      description: 'Notes',
    },
    { employer: 'Royal Society', title: 'Fellow', startDate: '1850-03', endDate: '1851-01', current: true },
  ],
  education: [{ institution: 'Home', degree: 'BSc', fieldOfStudy: 'Mathematics', startDate: '1830-01' }],
  source: 'careers site',
};

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
