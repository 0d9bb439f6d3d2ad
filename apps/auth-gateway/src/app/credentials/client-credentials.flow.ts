import { Inject, Injectable, Logger } from '@nestjs/common';
import {
  AuthErrorCode,
  type ConnectionTestReply,
  type EventEnvelope,
  type SealedConfig,
} from '@connector/contracts';
import { AtsError, OutboundGuard, UrlPolicyError } from '@connector/ats-http';
import {
  AtsRegistry,
  type ClientCredentialsSetup,
  type ClientCredentialsSteps,
  SetupError,
  type VerifiedCredentials,
} from '@connector/ats-core';
import { type PostgresDailyQuota, type RateLimiter, RateLimitExceededError } from '@connector/rate-limiter';
import { RequestSeal } from '@connector/service-kit';
import { AuthGatewayConfig } from '../auth-gateway.config';
import { AtsCallSlots } from './ats-call-slots';
import { CONNECTION_TEST_LIMITER, TOKEN_QUOTA } from './credential-issuer';
import { GatewayError } from './gateway.error';
import { openSealedConfig } from './sealed-request';

/** A set-up request as connector-registry sends it (`auth.connection.test`, `auth.credentials.save`). */
type SetupRequest = EventEnvelope<
  string,
  { type: string; connectorId?: string; config: SealedConfig; openStatuses?: string[] }
>;

/** A request's ATS set-up, its secrets opened and its config checked by the adapter's class. */
export interface OpenedSetup {
  readonly type: string;
  readonly config: Record<string, unknown>;
  readonly openStatuses?: string[];
}

/**
 * The client-credentials set-up of any ATS that declares `client-credentials`: the adapter's steps (its
 * `clientCredentials`: check the address, obtain access, read its statuses) in the gateway's frame. Every
 * failure is said in words an admin can act on, and the whole test ends within CONNECTION_TEST_TIMEOUT_MS.
 * Tests have their own slots (per account and in all, apart from renewals) and a rate limit per account across
 * replicas. Found by the capability, never by the ATS's name.
 */
@Injectable()
export class ClientCredentialsFlow {
  private readonly logger = new Logger(ClientCredentialsFlow.name);
  private readonly slots: AtsCallSlots;
  /** Each ATS's steps, built once per process (they keep their own state, e.g. calls in flight). */
  private readonly steps = new Map<string, ClientCredentialsSteps>();
  constructor(
    @Inject(AuthGatewayConfig) private readonly config: AuthGatewayConfig,
    private readonly guard: OutboundGuard,
    @Inject(TOKEN_QUOTA) private readonly quota: PostgresDailyQuota,
    @Inject(CONNECTION_TEST_LIMITER) private readonly limiter: RateLimiter,
    private readonly seal: RequestSeal,
    /** The ATSs it sets up (the process's registry, AuthGatewayGlobalModule; a test's own). */
    private readonly registry: AtsRegistry,
  ) {
    this.slots = new AtsCallSlots('connection tests', {
      total: config.CONNECTION_TESTS_MAX,
      perKey: config.CONNECTION_TESTS_PER_ACCOUNT,
      retryAfterMs: 2_000,
    });
  }

  /**
   * The request's ATS, its config opened and checked: INVALID_REQUEST for an ATS that is not registered or
   * has no client-credentials set-up, a secret in clear or a config its class refuses; INVALID_SEAL for a
   * secret sealed for another request.
   */
  open(request: SetupRequest): OpenedSetup {
    const { type, openStatuses } = request.data;
    const config = openSealedConfig(this.seal, request, this.setupOf(type));
    return { type, config, ...(openStatuses ? { openStatuses } : {}) };
  }

  /** The admin's "Test connection": at most CONNECTION_TESTS_PER_MINUTE per account, in its own slots. */
  async test(accountId: string, setup: OpenedSetup): Promise<ConnectionTestReply> {
    try {
      await this.limiter
        .acquire(`connection-test:${accountId}`, 1, { maxWaitMs: 0 })
        .catch((error: unknown) => {
          if (!(error instanceof RateLimitExceededError)) throw error;
          const seconds = Math.max(1, Math.ceil((error.retryAt.getTime() - Date.now()) / 1000));
          throw new GatewayError(
            AuthErrorCode.RateLimited,
            `Too many connection tests from this account (at most ${this.config.CONNECTION_TESTS_PER_MINUTE} a ` +
              `minute). Try again in ${seconds} s.`,
            seconds * 1000,
          );
        });
      await this.verify(accountId, setup);
      return { ok: true };
    } catch (error) {
      const failure = error instanceof GatewayError ? error : this.explain(undefined, error);
      return { ok: false, error: { code: failure.code, message: failure.message } };
    }
  }

  /**
   * What the ATS's steps proved (the address as used, access, the open statuses checked against the ATS), or
   * a GatewayError that explains.
   */
  verify(
    accountId: string,
    setup: OpenedSetup,
    /** How long it may wait behind the account's own other tests (a save waits; a test answers BUSY at once). */
    waitMs = 0,
  ): Promise<VerifiedCredentials> {
    return this.slots
      .run(accountId, () => this.verifyInSlot(accountId, setup), waitMs)
      .catch((error: unknown) => {
        if (error instanceof GatewayError && error.code === AuthErrorCode.Busy) {
          // Said to an admin: plain words, the refusal's wait kept for the transport.
          throw new GatewayError(
            AuthErrorCode.Busy,
            'Too many connection tests are running right now. Wait a few seconds and test again.',
            error.retryAfterMs,
          );
        }
        throw error;
      });
  }

  private async verifyInSlot(accountId: string, setup: OpenedSetup): Promise<VerifiedCredentials> {
    const steps = this.stepsOf(setup.type);
    const timeoutMs = this.config.CONNECTION_TEST_TIMEOUT_MS;
    const deadline = AbortSignal.timeout(timeoutMs);
    const work = steps
      .verify({ accountId, config: setup.config, openStatuses: setup.openStatuses, timeoutMs })
      .catch((error: unknown) => {
        throw this.explain(steps, error);
      });
    const timedOut = new Promise<never>((_, reject) =>
      deadline.addEventListener('abort', () =>
        reject(
          new GatewayError(
            AuthErrorCode.Unreachable,
            `The ATS${typeof setup.config['baseUrl'] === 'string' ? ` at ${setup.config['baseUrl']}` : ''} did ` +
              `not answer within ${timeoutMs / 1000} s. Check the address and that the system is up.`,
          ),
        ),
      ),
    );
    return Promise.race([work, timedOut]);
  }

  private setupOf(type: string): ClientCredentialsSetup {
    const setup = this.registry.supports(type, 'client-credentials')
      ? this.registry.get(type).clientCredentials
      : undefined;
    if (!setup) {
      throw new GatewayError(
        AuthErrorCode.InvalidRequest,
        `type must be one of the following values: ${this.registry.typesWith('client-credentials').join(', ')}`,
      );
    }
    return setup;
  }

  private stepsOf(type: string): ClientCredentialsSteps {
    let steps = this.steps.get(type);
    if (!steps) {
      const { guard, quota, logger } = this;
      steps = this.setupOf(type).steps({ guard, quota, logger });
      this.steps.set(type, steps);
    }
    return steps;
  }

  /** The ATS's own words first, then what any ATS's failure means. */
  private explain(steps: ClientCredentialsSteps | undefined, error: unknown): GatewayError {
    if (error instanceof GatewayError) return error;
    const own = error instanceof SetupError ? error : steps?.explain?.(error);
    if (own) return new GatewayError(own.code, own.message);
    if (error instanceof RateLimitExceededError) {
      return new GatewayError(
        AuthErrorCode.RateLimited,
        `This account has no ATS calls left for this system until ${error.retryAt.toISOString()} ` +
          '(its daily quota). Test again after that.',
      );
    }
    if (error instanceof UrlPolicyError) return new GatewayError(AuthErrorCode.InvalidUrl, error.message);
    // Refused at connect time: the host's address changed to one the connector may not call.
    if (error instanceof AtsError && error.code === 'blocked_address') {
      return new GatewayError(AuthErrorCode.InvalidUrl, error.message);
    }
    if (error instanceof AtsError) {
      switch (error.kind) {
        case 'auth':
        case 'forbidden':
          return new GatewayError(
            AuthErrorCode.AuthFailed,
            `The ATS refused the credentials: ${error.message}`,
          );
        case 'unreachable':
        case 'transient':
          return new GatewayError(AuthErrorCode.Unreachable, `Could not reach the ATS: ${error.message}`);
        case 'not_found':
          return new GatewayError(AuthErrorCode.InvalidUrl, `The address answers but is not the ATS's API.`);
        case 'rate_limited':
        case 'permanent':
          // The admin's own test of their credentials: the ATS's words help, and name no candidate.
          return new GatewayError(
            AuthErrorCode.AtsError,
            `The ATS answered with an error: ${error.message}${error.atsMessage ? `: ${error.atsMessage}` : ''}`,
          );
      }
    }
    return new GatewayError(AuthErrorCode.AtsError, (error as Error).message ?? String(error));
  }
}
