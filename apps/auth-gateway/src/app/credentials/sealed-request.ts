import { AuthErrorCode, type EventEnvelope, type SealedSecretDto } from '@connector/contracts';
import type { RequestSeal } from '@connector/service-kit';
import { GatewayError } from './gateway.error';

/**
 * A request's `config` with its client secret opened (the registry sealed it for this very request,
 * `REQUEST_SEAL_KEYS`). One that does not open is refused before anything is tried or stored: INVALID_SEAL.
 */
export function openSealedConfig<C extends { clientSecret: SealedSecretDto }>(
  seal: RequestSeal,
  request: EventEnvelope<string, { connectorId?: string; config: C }>,
): Omit<C, 'clientSecret'> & { clientSecret: string } {
  const { config, connectorId } = request.data;
  let clientSecret: string;
  try {
    clientSecret = seal.open(config.clientSecret, {
      type: request.type,
      accountId: request.accountId,
      requestId: request.id,
      connectorId,
    });
  } catch (error) {
    throw new GatewayError(
      AuthErrorCode.InvalidSeal,
      `the client secret was not sealed for this request, or REQUEST_SEAL_KEYS differ from connector-registry's ` +
        `(${(error as Error).message})`,
    );
  }
  return { ...config, clientSecret };
}
