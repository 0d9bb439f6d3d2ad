/**
 * ATS-B (Bullhorn) records and bodies (ats-b.md), derived from the vendor's own published interfaces
 * (`@bullhorn/bullhorn-types`) so a mismatch with the vendor's data model is a compile error. Dates are
 * epoch milliseconds on the wire.
 */
import type {
  Address,
  Candidate,
  CandidateEducation,
  CandidateFileAttachment,
  CandidateWorkHistory,
  ClientContact,
  ClientCorporation,
  JobOrder,
} from '@bullhorn/bullhorn-types';
import type {
  ATS_B_CLIENT_CONTACT_FIELDS,
  ATS_B_CLIENT_CORPORATION_FIELDS,
  ATS_B_JOB_ORDER_SCALAR_FIELDS,
} from './ats-b.protocol';

export interface AtsBTokenSet {
  accessToken: string;
  /** Single use: store the new one durably before using it. */
  refreshToken: string;
  expiresInSeconds: number;
  /**
   * The customer's data centre's OAuth address (`…/oauth`, no trailing slash) where the token was issued: the
   * one asked, or the one the vendor redirected to (a 307 to the user's data centre).
   */
  oauthUrl: string;
}

export interface AtsBSession {
  bhRestToken: string;
  /** Ends with `/`; every data call is relative to it. */
  restUrl: string;
}

/** A REST login's answer, and the data centre's login address that gave it (the one asked or redirected to). */
export interface AtsBLoginSession extends AtsBSession {
  restLoginUrl: string;
}

/** Where one customer is served (ats-b.md "Data centres"): learned at its login, kept with its connector. */
export interface AtsBDataCentre {
  /** e.g. https://auth-emea9.bullhornstaffing.com/oauth */
  oauthUrl: string;
  /** e.g. https://rest-emea9.bullhornstaffing.com/rest-services */
  restLoginUrl: string;
}

export interface AtsBOAuthConfig {
  clientId: string;
  clientSecret: string;
  redirectUri: string;
  /** e.g. https://auth.bullhornstaffing.com/oauth */
  oauthUrl: string;
  /** e.g. https://rest.bullhornstaffing.com/rest-services */
  restLoginUrl: string;
  /**
   * Host suffixes of the vendor (`ATS_B_ALLOWED_HOSTS`): a redirect, a data centre's address and a session's
   * restUrl must be under one of them (the configured addresses' own hosts always are).
   */
  allowedHosts?: readonly string[];
  /** Told of an address refused for not being the vendor's (host only): logged by the caller. */
  onRefused?: (refusal: { endpoint: string; host: string; reason: string }) => void;
}

/**
 * How a vendor field travels in JSON: `Date` as epoch milliseconds, `Strings` (string | string[]) as one
 * string; numbers and booleans as they are (so `JobOrder.isPublic` stays a number, 1/0).
 */
export type AtsBWire<T> = T extends Date ? number : T extends readonly string[] ? string : T;

/** The listed fields of a vendor entity as JSON carries them; an empty one comes as `null` or is absent. */
export type AtsBWireFields<T, K extends keyof T> = { [P in K]?: AtsBWire<NonNullable<T[P]>> | null };

/** A to-one association: `id` plus the sub-fields asked for in `fields` (e.g. `clientCorporation(id,name)`). */
export type AtsBToOne<T extends { id?: number }, K extends keyof T> = { id: number } & AtsBWireFields<T, K>;

/** The embedded address as the integration reads and writes it (countryID an Integer). */
export type AtsBAddress = AtsBWireFields<
  Address,
  'address1' | 'address2' | 'city' | 'state' | 'zip' | 'countryID'
>;

/**
 * A JobOrder as the vendor's data model says it travels (`@bullhorn/bullhorn-types`): `isPublic` Integer
 * 1/0, `isOpen`/`isDeleted` Boolean, dates epoch ms. Only the fields asked for in `fields` are present
 * (`id` always is). Real instances deviate: read values with the tolerant readers, never `=== true`.
 */
export type AtsBJobOrder = { id: number } & AtsBWireFields<
  JobOrder,
  (typeof ATS_B_JOB_ORDER_SCALAR_FIELDS)[number]
> & {
    address?: AtsBAddress | null;
    clientCorporation?: AtsBToOne<ClientCorporation, (typeof ATS_B_CLIENT_CORPORATION_FIELDS)[number]> | null;
    clientContact?: AtsBToOne<ClientContact, (typeof ATS_B_CLIENT_CONTACT_FIELDS)[number]> | null;
  };

export interface AtsBSearchResult<T> {
  total: number;
  start: number;
  count: number;
  data: T[];
}

export interface AtsBSearchJobOrdersParams {
  query: string;
  start: number;
  count: number;
  /** `id` (default), `-id`, `dateLastModified`, `-dateLastModified`. */
  sort?: string;
}

/** Candidate fields this integration writes (ats-b.md); strict: exactly the vendor's types. */
type AtsBCandidateWriteFields = 'firstName' | 'lastName' | 'email' | 'phone' | 'mobile' | 'source';

/** `name` and `status` are required on insert; `name` is never derived from first/last name. */
export type AtsBCandidateInput = AtsBWireFields<Candidate, AtsBCandidateWriteFields> & {
  name: AtsBWire<NonNullable<Candidate['name']>>;
  status: AtsBWire<NonNullable<Candidate['status']>>;
  address?: AtsBAddress | null;
};

/** Changed fields only. */
export type AtsBCandidatePatch = Partial<AtsBCandidateInput>;

export type AtsBCandidate = { id: number } & Partial<AtsBCandidateInput> &
  AtsBWireFields<Candidate, 'isDeleted' | 'dateAdded' | 'dateLastModified'>;

export type AtsBWorkHistoryInput = { candidate: { id: number } } & AtsBWireFields<
  CandidateWorkHistory,
  'companyName' | 'title' | 'startDate' | 'endDate' | 'comments'
>;

export type AtsBEducationInput = { candidate: { id: number } } & AtsBWireFields<
  CandidateEducation,
  'school' | 'degree' | 'major' | 'startDate' | 'endDate'
>;

/** A record as read back: every field listed, an empty one (null or absent on the wire) as `null`. */
export type AtsBReadBack<T> = { id: number } & { [K in keyof T]-?: Exclude<T[K], undefined> | null };

/** A work-history record as listCandidateWorkHistories reads it (dates epoch ms). */
export type AtsBWorkHistory = AtsBReadBack<Omit<AtsBWorkHistoryInput, 'candidate'>>;

/** An education record as listCandidateEducations reads it (dates epoch ms). */
export type AtsBEducation = AtsBReadBack<Omit<AtsBEducationInput, 'candidate'>>;

export interface AtsBChangeResult {
  changedEntityType?: string;
  changedEntityId: number;
  changeType?: 'INSERT' | 'UPDATE' | 'DELETE';
}

export interface AtsBUploadFile {
  /** Our idempotency handle: the platform document id, so a retry can be recognised in listCandidateFiles. */
  externalID: string;
  name: string;
  contentType: string;
  /** Per customer: "Resume", "Cover Letter", "Smart CV", … */
  type: string;
  description?: string;
  content: Buffer;
}

/** A file attachment as listCandidateFiles reads it (tolerantly: id as number or numeric string). */
export interface AtsBCandidateFile {
  id: number;
  name: AtsBWire<NonNullable<CandidateFileAttachment['name']>>;
  type: AtsBWire<NonNullable<CandidateFileAttachment['type']>> | null;
  externalID: AtsBWire<NonNullable<CandidateFileAttachment['externalID']>> | null;
}

export interface AtsBLoginInfo {
  oauthUrl: string;
  restUrl: string;
}
