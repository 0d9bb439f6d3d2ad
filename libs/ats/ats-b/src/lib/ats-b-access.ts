import type { AtsAccess } from '@connector/contracts';
import { accessOf } from '@connector/ats-core';

/** What auth-gateway hands a worker for an ATS-B connector: the REST session (its address and token). */
export interface AtsBAccess extends AtsAccess {
  type: 'ats-b';
  restUrl: string;
  bhRestToken: string;
}

export function atsBAccessOf(access: AtsAccess): AtsBAccess {
  return accessOf<AtsBAccess>(access, 'ats-b', ['restUrl', 'bhRestToken']);
}
