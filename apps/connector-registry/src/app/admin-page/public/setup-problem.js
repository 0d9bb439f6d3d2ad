// @ts-check
/**
 * What a failed ATS-A connection test or save means for the person at the keyboard, and which fields to fix.
 * @param {{ code?: string }} error
 * @returns {{ title: string, fields: string[], advice?: string }}
 */
export function setupProblem(error) {
  switch (error.code) {
    case 'AUTH_FAILED':
      return { title: 'ATS-A refused these credentials', fields: ['clientId', 'clientSecret'] };
    case 'UNREACHABLE':
    case 'ATS_UNREACHABLE':
      return {
        title: 'The ATS could not be reached at this address',
        fields: ['baseUrl'],
        advice:
          'Check the base API URL (your ATS-A address, without “/api”) and that ATS-A is up, then test again.',
      };
    case 'INVALID_URL':
      return { title: 'This address cannot be used', fields: ['baseUrl'] };
    case 'DEPENDENCY_UNAVAILABLE':
      return { title: 'The connection could not be checked right now', fields: [] };
    case 'VALIDATION_FAILED':
      return { title: 'Some fields need a value', fields: [] };
    default:
      return { title: 'The connection test failed', fields: [] };
  }
}
