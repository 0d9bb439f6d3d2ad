import {
  ATS_B_CLIENT_CONTACT_FIELDS,
  ATS_B_CLIENT_CORPORATION_FIELDS,
  ATS_B_JOB_ORDER_SCALAR_FIELDS,
} from './client/ats-b.protocol';

const ADDRESS = ['address1', 'address2', 'city', 'state', 'zip', 'countryID'];
/** Read to filter the listing, never worth mapping: a deleted job order is not listed. */
const NOT_MAPPED: ReadonlySet<string> = new Set(['isDeleted']);

/**
 * The paths a mapping may read (../shared/ats-b.md): the JobOrder fields vacancy-sync requests
 * (`ATS_B_JOB_ORDER_FIELDS`), with the address and the to-one associations' sub-fields.
 */
export const ATS_B_SOURCE_PATHS: readonly string[] = [
  'id',
  ...ATS_B_JOB_ORDER_SCALAR_FIELDS.filter((field) => !NOT_MAPPED.has(field)),
  ...ADDRESS.map((field) => `address.${field}`),
  'clientCorporation.id',
  ...ATS_B_CLIENT_CORPORATION_FIELDS.map((field) => `clientCorporation.${field}`),
  'clientContact.id',
  ...ATS_B_CLIENT_CONTACT_FIELDS.map((field) => `clientContact.${field}`),
];
