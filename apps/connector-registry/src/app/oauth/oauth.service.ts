import { randomBytes } from 'node:crypto';
import { Injectable, Logger } from '@nestjs/common';
import { AuthErrorCode } from '@connector/contracts';
import { RpcError } from '@connector/messaging';
import type { AdminIdentity } from '../auth/api-keys';
import { AuthGatewayClient } from '../clients/auth-gateway.client';
import { dependencyError, isUnanswered } from '../clients/dependency-errors';
import { RegistryErrorCode, RegistryException } from '../common/registry.exception';
import { ConnectorsService } from '../connectors/connectors.service';
import { ConnectorKinds } from '../connectors/kinds/connector-kinds';

export type CallbackOutcome =
  { ok: true; connectorId: string } | { ok: false; status: 400 | 503; title: string; explanation: string };

/** An interactive login (OAuth authorization code) at the connector's ATS: started by an admin, completed by their browser. */
@Injectable()
export class OAuthService {
  private readonly logger = new Logger(OAuthService.name);

  constructor(
    private readonly connectors: ConnectorsService,
    private readonly kinds: ConnectorKinds,
    private readonly gateway: AuthGatewayClient,
  ) {}

  /** The ATS login URL, the random nonce to set as the browser's cookie, and the state that names it. */
  async start(
    admin: AdminIdentity,
    connectorId: string,
  ): Promise<{ authorizeUrl: string; nonce: string; state: string }> {
    const connector = await this.connectors.findOwned(admin, connectorId);
    if (!this.kinds.of(connector.type).authorizedByLogin) {
      throw new RegistryException(
        RegistryErrorCode.NotInteractiveLogin,
        `Only connectors of an ATS with an interactive login are authorized by logging in (${connector.type} has none)`,
      );
    }
    const nonce = randomBytes(32).toString('base64url');
    try {
      const reply = await this.gateway.startAuthorization(admin.accountId, {
        type: connector.type,
        connectorId,
        adminId: admin.adminId,
        browserNonce: nonce,
      });
      const state = new URL(reply.authorizeUrl).searchParams.get('state');
      if (!state) throw new Error('auth-gateway answered a login URL without a state');
      return { authorizeUrl: reply.authorizeUrl, nonce, state };
    } catch (error) {
      throw dependencyError(error, 'auth-gateway');
    }
  }

  async complete(query: {
    /** The ATS the callback's path names. */
    type?: string;
    code?: string;
    state?: string;
    error?: string;
    nonce?: string;
  }): Promise<CallbackOutcome> {
    // A callback that carries `error` is an error response (RFC 6749 4.1.2.1), even with an empty one.
    if (query.error !== undefined) {
      return refused(
        'The ATS did not authorize the connection',
        `The ATS answered: ${query.error.slice(0, 200) || 'an error without a code'}.`,
      );
    }
    if (!query.code || !query.state) {
      return refused(
        'This login link is incomplete',
        'The ATS sent the browser back without a code or state.',
      );
    }
    if (!query.nonce) {
      return refused(
        'This login was not started in this browser',
        'The login has to finish in the browser that started it, within 10 minutes.',
      );
    }
    try {
      const reply = await this.gateway.completeAuthorization({
        ...(query.type ? { type: query.type } : {}),
        code: query.code,
        state: query.state,
        browserNonce: query.nonce,
      });
      const marked = await this.connectors.markAuthorized(reply.accountId, reply.connectorId);
      if (!marked) {
        // The gateway has just stored the login's refresh token: it must not outlive the connector.
        await this.connectors.eraseAfterLateLogin(reply.accountId, reply.connectorId);
        return refused('The connector no longer exists', 'It was deleted while the login was in progress.');
      }
      return { ok: true, connectorId: reply.connectorId };
    } catch (error) {
      if (isUnanswered(error)) {
        return {
          ok: false,
          status: 503,
          title: 'The login could not be completed right now',
          explanation: 'Our authorization service did not answer. Please try again in a moment.',
        };
      }
      if (error instanceof RpcError && error.code === AuthErrorCode.InvalidState) {
        return refused(
          'This login link has expired or was already used',
          'Each login link works once, for 10 minutes, in the browser that started it.',
        );
      }
      this.logger.warn(
        `OAuth callback failed: ${error instanceof RpcError ? error.code : (error as Error).message}`,
      );
      return refused('The login could not be completed', 'The ATS did not accept the login.');
    }
  }
}

function refused(title: string, explanation: string): CallbackOutcome {
  return { ok: false, status: 400, title, explanation };
}
