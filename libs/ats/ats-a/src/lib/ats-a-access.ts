import type { AtsAccess } from '@connector/contracts';
import { accessOf } from '@connector/ats-core';

/** What auth-gateway hands a worker for an ATS-A connector: the verified base address and a bearer token. */
export interface AtsAAccess extends AtsAccess {
  type: 'ats-a';
  baseUrl: string;
  accessToken: string;
}

export function atsAAccessOf(access: AtsAccess): AtsAAccess {
  return accessOf<AtsAAccess>(access, 'ats-a', ['baseUrl', 'accessToken']);
}
