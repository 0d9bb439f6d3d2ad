import { applyJobMapping, type JobMapping, readPath, validateJobMapping } from '@connector/job-mapping';
import { atsRegistry, defaultJobMapping } from './ats-adapters';

/** The adapters' mapping defaults with the mapping engine (libs/job-mapping): they must fit each other. */
const vocabulary = (type: string) => atsRegistry.get(type).mapping;

const atsAVacancy = {
  VacancyId: 42,
  Title: { Id: 7, Description: 'Nurse' },
  VacancyStatus: { Id: 3, Description: 'Open' },
  Location: { Id: 9, Description: 'Leeds' },
  Salary: null,
  Description: '<p>Care</p>',
  Requirements: 'NMC registration',
  IncludeOnSite: true,
  Company: {
    CompanyId: 5,
    Name: 'St Mary',
    CompanyStatus: { Id: 1, Description: 'Client' },
    Address: { Town: 'Leeds', PostCode: 'LS1' },
  },
  Contact: { ContactId: 8, FirstName: 'Ann', Surname: 'Lee', Email: null },
};

const atsBJob = {
  id: 101,
  title: 'Welder',
  address: { address1: '1 Road', city: 'Boston', state: 'MA', zip: null, countryID: 1 },
  publicDescription: 'Weld things',
  description: 'internal',
  skillList: 'MIG, TIG',
  employmentType: 'Contract',
  status: 'Accepting Candidates',
  clientCorporation: { id: 3, name: 'Acme' },
  clientContact: null,
};

describe(defaultJobMapping.name, () => {
  it.each(atsRegistry.types())('gives a valid mapping for %s', (type) => {
    expect(validateJobMapping(vocabulary(type), defaultJobMapping(type))).toEqual([]);
  });
});

describe(validateJobMapping.name, () => {
  it('refuses what is not a mapping', () => {
    expect(validateJobMapping(vocabulary('ats-a'), null)).toEqual(['mapping: must be an object']);
    expect(validateJobMapping(vocabulary('ats-a'), { fields: [] })).toEqual(['fields: must be an object']);
  });

  it('names each missing required target', () => {
    const errors = validateJobMapping(vocabulary('ats-a'), { fields: { title: { from: 'Title' } } });
    expect(errors).toEqual([
      'fields.location: is required',
      'fields.description: is required',
      'fields.requirements: is required',
      'fields.status: is required',
    ]);
  });

  it('refuses a source path the ATS does not have, per ATS type', () => {
    const mapping = defaultJobMapping('ats-a');
    expect(validateJobMapping(vocabulary('ats-b'), mapping)).toContain(
      'fields.title.from: unknown source path "Title" for ats-b',
    );
    const withBadPath = { ...mapping, fields: { ...mapping.fields, extra: { from: 'Company.Nope' } } };
    expect(validateJobMapping(vocabulary('ats-a'), withBadPath)).toEqual([
      'fields.extra.from: unknown source path "Company.Nope" for ats-a',
    ]);
  });

  it('refuses bad shapes with their paths', () => {
    const base = defaultJobMapping('ats-b');
    const mapping = {
      fields: {
        ...base.fields,
        title: { from: 'title', default: 3 },
        status: { constant: 'Open', from: 'status' },
        location: 'address.city',
        'bad name': { constant: 'x' },
        requirements: { other: 'x' },
      },
      publish: { statuses: ['Open', 1], colours: [] },
      extra: true,
    };
    expect(validateJobMapping(vocabulary('ats-b'), mapping).sort()).toEqual(
      [
        'extra: unknown property',
        'fields.title.default: must be a string',
        'fields.status.from: unknown property',
        'fields.location: must be {from, default?} or {constant}',
        'fields.bad name: a target name is a letter then letters, digits or _ (64 at most)',
        'fields.requirements: must have "from" or "constant"',
        'publish.statuses.1: must be a string',
        'publish.colours: unknown property',
      ].sort(),
    );
  });

  it('accepts documented example paths', () => {
    expect(atsRegistry.get('ats-a').mapping.sourcePaths.has('Location.Description')).toBe(true);
    expect(atsRegistry.get('ats-a').mapping.sourcePaths.has('Company.Name')).toBe(true);
    expect(atsRegistry.get('ats-b').mapping.sourcePaths.has('clientCorporation.name')).toBe(true);
  });
});

describe(applyJobMapping.name, () => {
  it('maps an ATS-A vacancy with pick-lists as their Description and enriched company', () => {
    expect(applyJobMapping(defaultJobMapping('ats-a'), atsAVacancy)).toEqual({
      title: 'Nurse',
      location: 'Leeds',
      description: '<p>Care</p>',
      requirements: 'NMC registration',
      status: 'Open',
      fields: { salary: '', companyName: 'St Mary' },
      publish: true,
    });
  });

  it('maps an ATS-B job order', () => {
    expect(applyJobMapping(defaultJobMapping('ats-b'), atsBJob)).toEqual({
      title: 'Welder',
      location: 'Boston',
      description: 'Weld things',
      requirements: 'MIG, TIG',
      status: 'Accepting Candidates',
      fields: { employmentType: 'Contract', companyName: 'Acme' },
      publish: true,
    });
  });

  it('uses defaults for missing values, constants as they are, and reads deep paths', () => {
    const mapping: JobMapping = {
      fields: {
        ...defaultJobMapping('ats-b').fields,
        contactEmail: { from: 'clientContact.email', default: 'jobs@acme.test' },
        zip: { from: 'address.zip' },
        source: { constant: 'ATS-B' },
        id: { from: 'id' },
      },
    };
    expect(applyJobMapping(mapping, atsBJob).fields).toMatchObject({
      contactEmail: 'jobs@acme.test',
      zip: '',
      source: 'ATS-B',
      id: '101',
    });
    expect(readPath(atsAVacancy, 'Company.Address.Town')).toBe('Leeds');
    expect(readPath(atsAVacancy, 'Contact.Company.Name')).toBeUndefined();
  });

  it('reads tolerant values: blank or null text takes the default, text is trimmed, ids as numbers or text', () => {
    const mapping: JobMapping = {
      fields: {
        ...defaultJobMapping('ats-a').fields,
        salary: { from: 'Salary', default: 'Competitive' },
        id: { from: 'VacancyId' },
        statusId: { from: 'VacancyStatus.Id' },
      },
    };
    const record = {
      ...atsAVacancy,
      Title: { Id: '7', Description: '  Nurse  ' },
      Salary: '   ',
      VacancyId: '12',
      VacancyStatus: { Id: 31, Description: 'Open' },
      Location: null,
    };
    const mapped = applyJobMapping(mapping, record);
    expect(mapped).toMatchObject({ title: 'Nurse', location: '', status: 'Open' });
    expect(mapped.fields).toMatchObject({ salary: 'Competitive', id: '12', statusId: '31' });
    expect(applyJobMapping(mapping, { ...record, Salary: null, VacancyId: 12 }).fields).toMatchObject({
      salary: 'Competitive',
      id: '12',
    });
  });

  it('does not publish a vacancy whose status or location is outside the publish lists', () => {
    const mapping = defaultJobMapping('ats-a');
    const only = (publish: JobMapping['publish']) => applyJobMapping({ ...mapping, publish }, atsAVacancy);
    expect(only({ statuses: ['open', 'Live'] }).publish).toBe(true);
    expect(only({ statuses: ['Live'] }).publish).toBe(false);
    expect(only({ locations: ['London'] }).publish).toBe(false);
    expect(only({ statuses: [], locations: [' leeds '] }).publish).toBe(true);
  });
});
