/**
 * ATS-A records as ats-a.md documents them. Real instances differ in representation (an empty value `null` or
 * left out, ids as numbers or text, booleans as 1/"true", dates with or without offset), so readers go
 * through the tolerant readers (`read/tolerant-read.ts`); these types say what to expect, not a guarantee.
 */

/** A pick-list value, e.g. VacancyStatus `{Id: 1, Description: 'Open'}`. */
export interface AtsAPickList {
  Id: number;
  Description: string;
}

/** A link to another record, e.g. Company `{Id: 1000001}`. */
export interface AtsALink {
  Id: number;
}

export interface AtsAAddress {
  Address1?: string | null;
  Address2?: string | null;
  Town?: string | null;
  County?: string | null;
  PostCode?: string | null;
  Country?: string | null;
}

/** Dates are ISO 8601 strings. Fields not asked for in ResponseBlocks are absent. */
export interface AtsAVacancy {
  VacancyId: number;
  Title: AtsAPickList;
  VacancyStatus: AtsAPickList;
  Location?: AtsAPickList | null;
  Company?: AtsALink | null;
  Contact?: AtsALink | null;
  Salary?: string | null;
  Description?: string | null;
  Requirements?: string | null;
  IncludeOnSite: boolean | number | string;
  DatePosted?: string | null;
  AdvertisingEndDate?: string | null;
  CreationDate: string;
  ModificationDate: string;
}

export interface AtsAEmploymentHistory {
  Employer: string | null;
  JobTitle: string | null;
  StartDate: string | null;
  EndDate: string | null;
  Description: string | null;
}

export interface AtsAEducation {
  Establishment: string | null;
  Qualification: string | null;
  Subject: string | null;
  StartDate: string | null;
  EndDate: string | null;
}

export interface AtsAQuestion {
  Question: string;
  Answer: string | null;
}

export type AtsASearchResource = 'vacancies' | 'contacts' | 'companies' | 'candidates' | 'applications';

export type AtsAFilterOperation = 'Equals' | 'In' | 'GreaterThan' | 'LessThan';

/** `Route` is `<Entity>.<Field>[.<Sub>]`, e.g. `Vacancy.ModificationDate`, `Contact.ContactId`. */
export interface AtsAFilter {
  Route: string;
  Operation: AtsAFilterOperation;
  Value: string | number | boolean | null | Array<string | number>;
}

export interface AtsASearchBody {
  Paging: { RecordsPerPage: number; RequestedPage: number };
  Filters?: AtsAFilter[];
  ResponseBlocks?: string[];
}

export interface AtsASearchPage<T> {
  CurrentPage: number;
  TotalPages: number;
  Records: T[];
}

/** `POST /api/candidates` body: FirstName, Surname and Email are required by the ATS. */
export interface AtsACandidateInput {
  Title?: string | null;
  FirstName: string;
  Surname: string;
  Email: string;
  Telephone?: string | null;
  Mobile?: string | null;
  Address?: Partial<AtsAAddress> | null;
  EmploymentHistory?: Array<Partial<AtsAEmploymentHistory>>;
  Education?: Array<Partial<AtsAEducation>>;
}

/** `PATCH /api/candidates/{id}`: only the changed fields. */
export type AtsACandidatePatch = Partial<AtsACandidateInput>;

export interface AtsAApplicationInput {
  Candidate: AtsALink;
  Vacancy: AtsALink;
  Questions?: AtsAQuestion[];
}

/** `PATCH /api/applications/{id}`: the changed answers. */
export interface AtsAApplicationPatch {
  Questions: AtsAQuestion[];
}

export type AtsAUploadKind = 'cv' | 'file';

export interface AtsAUploadFile {
  name: string;
  contentType: string;
  content: Buffer;
}
