import type { JobMapping, MappingAtsType } from './job-mapping.types';

/** What a new connector starts with (saved as its mapping version 1). */
export function defaultJobMapping(atsType: MappingAtsType): JobMapping {
  switch (atsType) {
    case 'ats-a':
      return {
        fields: {
          title: { from: 'Title' },
          location: { from: 'Location' },
          description: { from: 'Description' },
          requirements: { from: 'Requirements' },
          status: { from: 'VacancyStatus' },
          salary: { from: 'Salary' },
          companyName: { from: 'Company.Name' },
        },
      };
    case 'ats-b':
      return {
        fields: {
          title: { from: 'title' },
          location: { from: 'address.city' },
          // The public description is the one written for job boards; `description` is internal.
          description: { from: 'publicDescription' },
          requirements: { from: 'skillList' },
          status: { from: 'status' },
          employmentType: { from: 'employmentType' },
          companyName: { from: 'clientCorporation.name' },
        },
      };
  }
}
