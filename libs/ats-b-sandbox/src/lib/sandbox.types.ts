/** Records the sandbox keeps, shaped as the Bullhorn REST API returns them. */

export interface JobOrderAddress {
  address1: string | null;
  city: string | null;
  state: string | null;
  zip: string | null;
  countryID: number | null;
}

export interface ClientCorporationRef {
  id: number;
  name: string;
}

export interface ClientContactRef {
  id: number;
  firstName: string;
  lastName: string;
  email: string | null;
  phone: string | null;
}

export interface JobOrder {
  id: number;
  title: string;
  address: JobOrderAddress;
  publicDescription: string | null;
  description: string | null;
  skillList: string | null;
  employmentType: string | null;
  status: string;
  isOpen: boolean;
  isPublic: boolean;
  isDeleted: boolean;
  dateAdded: number;
  dateLastModified: number;
  clientCorporation: ClientCorporationRef;
  clientContact: ClientContactRef | null;
}

export interface CandidateAddress {
  address1?: string | null;
  address2?: string | null;
  city?: string | null;
  state?: string | null;
  zip?: string | null;
  countryID?: number | null;
}

export interface Candidate {
  id: number;
  firstName: string | null;
  lastName: string | null;
  name: string;
  email: string | null;
  phone: string | null;
  mobile: string | null;
  address: CandidateAddress | null;
  status: string;
  source: string | null;
  isDeleted: boolean;
  dateAdded: number;
  dateLastModified: number;
}

export interface CandidateWorkHistory {
  id: number;
  candidate: { id: number };
  companyName: string | null;
  title: string | null;
  startDate: number | null;
  endDate: number | null;
  comments: string | null;
  dateAdded: number;
}

export interface CandidateEducation {
  id: number;
  candidate: { id: number };
  school: string | null;
  degree: string | null;
  major: string | null;
  startDate: number | null;
  endDate: number | null;
  dateAdded: number;
}

export interface CandidateFile {
  id: number;
  candidateId: number;
  externalID: string;
  fileType: string;
  name: string;
  contentType: string | null;
  description: string | null;
  type: string | null;
  fileSize: number;
  sha256: string;
  content: Buffer;
  via: 'json' | 'multipart';
  dateAdded: number;
}

/** A file as the admin surface shows it: metadata, never the bytes. */
export type CandidateFileView = Omit<CandidateFile, 'content'>;

export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };
export type JsonObject = { [key: string]: JsonValue };
