import type {
  Address,
  Candidate as VendorCandidate,
  CandidateEducation as VendorCandidateEducation,
  CandidateWorkHistory as VendorCandidateWorkHistory,
  ClientContact,
  ClientCorporation,
  JobOrder as VendorJobOrder,
} from '@bullhorn/bullhorn-types';

/**
 * Records the sandbox keeps, typed from the vendor's own published interfaces (`@bullhorn/bullhorn-types`)
 * in their JSON form, so a record that strays from the vendor's data model is a compile error.
 */

/** A vendor field as JSON carries it: `Date` as epoch milliseconds, `Strings` (string | string[]) as one string. */
export type Wire<T> = T extends Date ? number : T extends readonly string[] ? string : T;

/** Fields every record of the entity has a value for. */
export type WireRequired<T, K extends keyof T> = { [P in K]-?: Wire<NonNullable<T[P]>> };

/** Fields a customer may leave empty: the vendor then sends `null` or leaves the field out (both happen). */
export type WireOptional<T, K extends keyof T> = { [P in K]?: Wire<NonNullable<T[P]>> | null };

/** Fields that are always present but may be `null`. */
export type WireNullable<T, K extends keyof T> = { [P in K]-?: Wire<NonNullable<T[P]>> | null };

export type JobOrderAddress = WireOptional<
  Address,
  'address1' | 'address2' | 'city' | 'state' | 'zip' | 'countryID'
>;

export type ClientCorporationRef = WireRequired<ClientCorporation, 'id'> &
  WireOptional<ClientCorporation, 'name'>;

export type ClientContactRef = WireRequired<ClientContact, 'id'> &
  WireOptional<ClientContact, 'firstName' | 'lastName' | 'email' | 'phone'>;

/**
 * A JobOrder as the vendor's data model has it: `isPublic` Integer (1 published, 0 not; never true/false),
 * `isOpen`/`isDeleted` Boolean, dates epoch ms, `salary`/`payRate` BigDecimal, `countryID` Integer.
 */
export type JobOrder = WireRequired<
  VendorJobOrder,
  'id' | 'isOpen' | 'isPublic' | 'isDeleted' | 'dateAdded' | 'dateLastModified'
> &
  WireOptional<
    VendorJobOrder,
    | 'title'
    | 'publicDescription'
    | 'description'
    | 'skillList'
    | 'employmentType'
    | 'status'
    | 'numOpenings'
    | 'salary'
    | 'payRate'
    | 'type'
    | 'startDate'
    | 'dateClosed'
    | 'dateEnd'
  > & {
    address?: JobOrderAddress | null;
    clientCorporation?: ClientCorporationRef | null;
    clientContact?: ClientContactRef | null;
  };

export type CandidateAddress = JobOrderAddress;

export type Candidate = WireRequired<
  VendorCandidate,
  'id' | 'name' | 'status' | 'isDeleted' | 'dateAdded' | 'dateLastModified'
> &
  WireNullable<
    VendorCandidate,
    'firstName' | 'lastName' | 'email' | 'phone' | 'mobile' | 'source' | 'dateOfBirth'
  > & {
    address: CandidateAddress | null;
  };

export type CandidateWorkHistory = WireRequired<VendorCandidateWorkHistory, 'id' | 'dateAdded'> &
  WireNullable<VendorCandidateWorkHistory, 'companyName' | 'title' | 'startDate' | 'endDate' | 'comments'> & {
    candidate: { id: number };
  };

export type CandidateEducation = WireRequired<VendorCandidateEducation, 'id' | 'dateAdded'> &
  WireNullable<VendorCandidateEducation, 'school' | 'degree' | 'major' | 'startDate' | 'endDate'> & {
    candidate: { id: number };
  };

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
