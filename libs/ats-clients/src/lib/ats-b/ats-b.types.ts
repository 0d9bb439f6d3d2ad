/** ATS-B (Bullhorn-like) records and bodies (ats-b.md). Dates are epoch milliseconds. */

export interface AtsBTokenSet {
  accessToken: string;
  /** Single use: store the new one durably before using it. */
  refreshToken: string;
  expiresInSeconds: number;
}

export interface AtsBSession {
  bhRestToken: string;
  /** Ends with `/`; every data call is relative to it. */
  restUrl: string;
}

export interface AtsBOAuthConfig {
  clientId: string;
  clientSecret: string;
  redirectUri: string;
  /** e.g. https://auth.bullhornstaffing.com/oauth */
  oauthUrl: string;
  /** e.g. https://rest.bullhornstaffing.com/rest-services */
  restLoginUrl: string;
}

export interface AtsBAddress {
  address1?: string | null;
  address2?: string | null;
  city?: string | null;
  state?: string | null;
  zip?: string | null;
  countryID?: number | null;
}

/** Only the fields asked for in `fields` are present (`id` always is). */
export interface AtsBJobOrder {
  id: number;
  title?: string | null;
  address?: AtsBAddress | null;
  publicDescription?: string | null;
  description?: string | null;
  skillList?: string | null;
  employmentType?: string | null;
  status?: string | null;
  isOpen?: boolean;
  isPublic?: boolean;
  isDeleted?: boolean;
  dateAdded?: number;
  dateLastModified?: number;
  clientCorporation?: { id: number; name?: string } | null;
  clientContact?: {
    id: number;
    firstName?: string | null;
    lastName?: string | null;
    email?: string | null;
    phone?: string | null;
  } | null;
}

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

/** `name` and `status` are required on insert; `name` is never derived from first/last name. */
export interface AtsBCandidateInput {
  firstName?: string | null;
  lastName?: string | null;
  name: string;
  email?: string | null;
  phone?: string | null;
  mobile?: string | null;
  address?: AtsBAddress | null;
  status: string;
  source?: string | null;
}

/** Changed fields only. */
export type AtsBCandidatePatch = Partial<AtsBCandidateInput>;

export interface AtsBCandidate extends Partial<AtsBCandidateInput> {
  id: number;
  isDeleted?: boolean;
  dateAdded?: number;
  dateLastModified?: number;
}

export interface AtsBWorkHistoryInput {
  candidate: { id: number };
  companyName?: string | null;
  title?: string | null;
  startDate?: number | null;
  endDate?: number | null;
  comments?: string | null;
}

export interface AtsBEducationInput {
  candidate: { id: number };
  school?: string | null;
  degree?: string | null;
  major?: string | null;
  startDate?: number | null;
  endDate?: number | null;
}

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

export interface AtsBCandidateFile {
  id: number;
  name: string;
  type: string | null;
  externalID: string | null;
}

export interface AtsBLoginInfo {
  oauthUrl: string;
  restUrl: string;
}
