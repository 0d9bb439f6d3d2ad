import type { ConnectorSnapshot } from '@connector/contracts';
import { AUTHORIZATION_WAIT_MS } from '@connector/ats-client-factory';
import { TransientMessageError } from '@connector/messaging';

/**
 * What a connector's status means for work meant for it: `connected` takes it; `auth_failed` keeps it
 * waiting until the customer authorizes again (nothing is dropped); a disabled connector, or one never
 * authorized, takes nothing.
 */
export type ConnectorTarget = 'work' | 'wait' | 'skip';

export function targetOf(status: ConnectorSnapshot['status']): ConnectorTarget {
  switch (status) {
    case 'connected':
      return 'work';
    case 'auth_failed':
      return 'wait';
    case 'disabled':
    case 'pending_authorization':
      return 'skip';
  }
}

export function waitForAuthorization(connector: ConnectorSnapshot): TransientMessageError {
  return new TransientMessageError(
    `connector ${connector.id} must be authorized again; waiting`,
    connector.id,
    undefined,
    AUTHORIZATION_WAIT_MS,
  );
}
