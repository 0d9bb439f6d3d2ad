import { plainToInstance } from 'class-transformer';
import { validateSync, type ValidationError } from 'class-validator';
import { AuthErrorCode, type EventEnvelope, type SealedConfig, SealedSecretDto } from '@connector/contracts';
import type { ClientCredentialsSetup } from '@connector/ats-core';
import type { RequestSeal } from '@connector/service-kit';
import { GatewayError } from './gateway.error';

/**
 * A request's `config` with its secret fields (the adapter's `secretFields`) opened (the registry sealed them
 * for this very request, `REQUEST_SEAL_KEYS`) and checked against the adapter's config class. A secret in
 * clear or a config the class refuses is INVALID_REQUEST; one that does not open INVALID_SEAL: refused before
 * anything is tried or stored.
 */
export function openSealedConfig(
  seal: RequestSeal,
  request: EventEnvelope<string, { connectorId?: string; config: SealedConfig }>,
  setup: Pick<ClientCredentialsSetup, 'configClass' | 'secretFields'>,
): Record<string, unknown> {
  const { config, connectorId } = request.data;
  const opened: Record<string, unknown> = { ...config };
  for (const field of setup.secretFields) {
    const sealed = plainToInstance(SealedSecretDto, config[field] ?? {});
    if (typeof config[field] !== 'object' || validateSync(sealed).length > 0) {
      throw new GatewayError(
        AuthErrorCode.InvalidRequest,
        `config.${field} must be sealed (REQUEST_SEAL_KEYS), never sent in clear`,
      );
    }
    try {
      opened[field] = seal.open(sealed, {
        type: request.type,
        accountId: request.accountId,
        requestId: request.id,
        connectorId,
      });
    } catch (error) {
      throw new GatewayError(
        AuthErrorCode.InvalidSeal,
        `the client secret was not sealed for this request (config.${field}), or REQUEST_SEAL_KEYS differ ` +
          `from connector-registry's (${(error as Error).message})`,
      );
    }
  }
  const problems = validateSync(plainToInstance(setup.configClass, opened)).flatMap(messagesOf);
  if (problems.length > 0) {
    throw new GatewayError(AuthErrorCode.InvalidRequest, problems.map((p) => `config.${p}`).join('; '));
  }
  return opened;
}

/** class-validator's messages (they name the property, never its value). */
function messagesOf(error: ValidationError): string[] {
  return [
    ...Object.values(error.constraints ?? {}),
    ...(error.children ?? []).flatMap((child) => messagesOf(child)),
  ];
}
