import type { CandidateDataDto } from '@connector/contracts';

/** A platform candidate with every field given (work history, education, address): the adapters' mapping specs. */
export function fullCandidate(): CandidateDataDto {
  return {
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
}
