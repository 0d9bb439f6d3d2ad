import {
  type AtsAConfigDto,
  type AtsASealedConfigDto,
  AuthErrorCode,
  type EventEnvelope,
} from '@connector/contracts';
import type { RequestSeal } from '@connector/service-kit';
import { GatewayError } from './gateway.error';

/**
 * A request's ATS-A credentials with the client secret opened (the registry sealed it for this very request,
 * `REQUEST_SEAL_KEYS`). One that does not open is refused before anything is tried or stored: INVALID_SEAL.
 */
export function openAtsAConfig(
  seal: RequestSeal,
  request: EventEnvelope<string, { connectorId?: string; config: AtsASealedConfigDto }>,
): AtsAConfigDto {
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
  return { baseUrl: config.baseUrl, clientId: config.clientId, clientSecret };
}
