// @ts-check
import { lowerFirst } from './ui.js';

/** @typedef {import('./admin-api').ConnectorTypeResponse} ConnectorType */

/**
 * What a failed connection test or save of credentials means for the person at the keyboard, and which fields
 * to fix: read from the ATS's set-up form (its address fields, its credential fields), no ATS named here.
 * @param {{ code?: string }} error
 * @param {ConnectorType | undefined} type
 * @returns {{ title: string, fields: string[], advice?: string }}
 */
export function setupProblem(error, type) {
  const fields = type ? type.fields.filter((f) => f.in === 'config') : [];
  const address = fields.filter((f) => f.kind === 'url');
  const credentials = fields.filter((f) => f.kind === 'text' || f.kind === 'secret');
  const ats = type ? type.label : 'The ATS';
  switch (error.code) {
    case 'AUTH_FAILED':
      return { title: `${ats} refused these credentials`, fields: credentials.map((f) => f.name) };
    case 'UNREACHABLE':
    case 'ATS_UNREACHABLE': {
      const url = address[0];
      const where = url
        ? `Check the ${lowerFirst(url.label)}${url.forbiddenSuffix ? ` (your ${ats} address, without “${url.forbiddenSuffix}”)` : ''} and that ${ats} is up, then test again.`
        : `Check that ${ats} is up, then test again.`;
      return {
        title: 'The ATS could not be reached at this address',
        fields: address.map((f) => f.name),
        advice: where,
      };
    }
    case 'INVALID_URL':
      return { title: 'This address cannot be used', fields: address.map((f) => f.name) };
    case 'DEPENDENCY_UNAVAILABLE':
      return { title: 'The connection could not be checked right now', fields: [] };
    case 'VALIDATION_FAILED':
      return { title: 'Some fields need a value', fields: [] };
    default:
      return { title: 'The connection test failed', fields: [] };
  }
}
