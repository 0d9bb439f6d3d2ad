import type { Link, PickListItem } from './ats-a.protocol';

/** Dates are ISO 8601 UTC strings; a missing optional value is `null` (as the vendor's .NET serializer does). */
export interface Vacancy {
  VacancyId: number;
  Title: PickListItem;
  VacancyStatus: PickListItem;
  Location: PickListItem | null;
  Company: Link | null;
  Contact: Link | null;
  Salary: string | null;
  Description: string | null;
  Requirements: string | null;
  IncludeOnSite: boolean;
  DatePosted: string | null;
  AdvertisingEndDate: string | null;
  CreationDate: string;
  ModificationDate: string;
}

export interface PostalAddress {
  Address1: string | null;
  Address2: string | null;
  Town: string | null;
  County: string | null;
  PostCode: string | null;
  Country: string | null;
}

export interface Company {
  CompanyId: number;
  Name: string;
  CompanyStatus: PickListItem;
  ParentCompany: Link | null;
  Address: PostalAddress | null;
  Website: string | null;
  LinkedIn: string | null;
  Telephone: string | null;
  Email: string | null;
  CreationDate: string;
  ModificationDate: string;
}

export interface Contact {
  ContactId: number;
  FirstName: string;
  Surname: string;
  Email: string | null;
  Telephone: string | null;
  Mobile: string | null;
  JobTitle: string | null;
  Company: Link | null;
  CreationDate: string;
  ModificationDate: string;
}

export interface EmploymentHistoryEntry {
  Employer: string | null;
  JobTitle: string | null;
  StartDate: string | null;
  EndDate: string | null;
  Description: string | null;
}

export interface EducationEntry {
  Establishment: string | null;
  Qualification: string | null;
  Subject: string | null;
  StartDate: string | null;
  EndDate: string | null;
}

export interface Candidate {
  CandidateId: number;
  Title: string | null;
  FirstName: string;
  Surname: string;
  Email: string;
  Telephone: string | null;
  Mobile: string | null;
  Address: PostalAddress | null;
  EmploymentHistory: EmploymentHistoryEntry[];
  Education: EducationEntry[];
  CreationDate: string;
  ModificationDate: string;
}

export interface ApplicationQuestion {
  Question: string;
  Answer: string | null;
}

export interface Application {
  ApplicationId: number;
  Candidate: Link;
  Vacancy: Link;
  ApplicationDate: string;
  Workflow: { Stage: PickListItem; Status: PickListItem };
  Questions: ApplicationQuestion[];
  CreationDate: string;
  ModificationDate: string;
}

/** What the sandbox keeps of an upload: enough for tests to check what arrived, not the bytes. */
export interface StoredFile {
  FileId: number;
  CandidateId: number;
  kind: 'cv' | 'file';
  FileTypeId: number;
  fileName: string;
  contentType: string;
  sizeBytes: number;
  sha256: string;
  uploadedAt: string;
}
