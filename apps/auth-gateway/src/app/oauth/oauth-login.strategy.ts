import type { Request } from 'express';
import type { oauth2tokenCallback } from 'oauth';
import OAuth2Strategy, {
  type StateStore,
  type StateStoreStoreCallback,
  type StateStoreVerifyCallback,
} from 'passport-oauth2';
import type { InteractiveLogin, LoginTokens } from '@connector/ats-core';
import type { OAuthContext, OAuthStateStore } from './oauth-state.store';
import type { OAuthStateEntity } from './oauth-state.entity';

/** What a finished login yields: the tokens and the state's context. */
export interface FinishedLogin {
  tokens: LoginTokens;
  state: OAuthStateEntity;
}

/** A request as the strategy sees it: our context going out, the callback's parameters coming back. */
export interface OAuthRequest {
  query: Record<string, string | undefined>;
  oauthContext?: OAuthContext;
  browserNonce?: string;
  verifiedState?: OAuthStateEntity;
}

export type StrategyOutcome =
  | { kind: 'redirect'; url: string }
  | { kind: 'success'; login: FinishedLogin }
  | { kind: 'fail'; message: string }
  | { kind: 'error'; error: Error };

/**
 * One interactive-login ATS's authorization-code flow on passport-oauth2: it builds the authorize URL, asks our
 * state store to issue and verify `state`, handles `?error=` callbacks, and exchanges the code. The ends and
 * the exchange itself are the adapter's (`InteractiveLogin`: ATS-B wants the token parameters in the query
 * string).
 */
export class OAuthLoginStrategy extends OAuth2Strategy {
  constructor(atsType: string, login: InteractiveLogin, states: OAuthStateStore, stateTtlSeconds: number) {
    super(
      {
        authorizationURL: login.oauth.authorizeUrl,
        tokenURL: login.oauth.tokenUrl,
        clientID: login.oauth.clientId,
        clientSecret: login.oauth.clientSecret,
        callbackURL: login.oauth.callbackUrl,
        passReqToCallback: true,
        skipUserProfile: true,
        // PKCE (RFC 7636, S256): the verifier is kept sealed with the state and sent with the code.
        pkce: true, // S256
        state: true,
        store: stateStoreFor(atsType, states, stateTtlSeconds),
      },
      (
        req: Request,
        accessToken: string,
        refreshToken: string,
        params: { expires_in?: number; addresses?: LoginTokens['addresses'] },
        _profile: unknown,
        done: (error: Error | null, user?: FinishedLogin) => void,
      ) => {
        const state = (req as unknown as OAuthRequest).verifiedState;
        if (!state) return done(new Error('state was not verified'));
        done(null, {
          tokens: {
            accessToken,
            refreshToken,
            expiresInSeconds: params.expires_in ?? 600,
            // What the exchange learned of where the customer is served, for the first session.
            ...(params.addresses ? { addresses: params.addresses } : {}),
          },
          state,
        });
      },
    );
    // The adapter's exchange (ATS-B takes the token request's parameters in the query string, not the form body).
    this._oauth2.getOAuthAccessToken = (
      code: string,
      ...rest: [unknown, oauth2tokenCallback] | [oauth2tokenCallback]
    ) => {
      const callback = rest[rest.length - 1] as oauth2tokenCallback;
      const params = (rest.length === 2 ? rest[0] : {}) as { code_verifier?: unknown };
      const verifier = typeof params.code_verifier === 'string' ? params.code_verifier : undefined;
      login.exchangeCode(code, verifier).then(
        // oauth's callback type has no "no error" value; passport-oauth2 only checks it for truthiness.
        (tokens) =>
          callback(NO_ERROR, tokens.accessToken, tokens.refreshToken, {
            expires_in: tokens.expiresInSeconds,
            addresses: tokens.addresses,
          }),
        (error: Error) => callback(error, '', '', {}),
      );
    };
  }

  /** Runs the strategy once on `request` and resolves with what it decided. */
  run(request: OAuthRequest): Promise<StrategyOutcome> {
    return new Promise((resolve) => {
      // passport's per-request actions; an instance made for one request (Object.create) keeps them apart.
      const attempt = Object.create(this) as OAuthLoginStrategy;
      attempt.redirect = (url: string) => resolve({ kind: 'redirect', url });
      attempt.success = (user: Express.User) => resolve({ kind: 'success', login: user as FinishedLogin });
      attempt.fail = (info?: unknown) =>
        resolve({
          kind: 'fail',
          message:
            typeof info === 'object' && info !== null && 'message' in info
              ? String(info.message)
              : 'the login was refused',
        });
      attempt.error = (error: Error) => resolve({ kind: 'error', error });
      attempt.authenticate(request as unknown as Request, {});
    });
  }
}

const NO_ERROR = null as unknown as Error;

/**
 * passport-oauth2's state store interface over OAuthStateStore, for the logins of `atsType`. With PKCE it calls `store` with the verifier
 * (it picks the call by the function's arity, so both take every parameter), and `verify` must hand the
 * verifier back as its "ok" value.
 */
function stateStoreFor(atsType: string, states: OAuthStateStore, ttlSeconds: number): StateStore {
  return {
    store(
      req: Request,
      verifier: string,
      _state: unknown,
      _meta: unknown,
      callback: StateStoreStoreCallback,
    ): void {
      const context = (req as unknown as OAuthRequest).oauthContext;
      if (!context) return callback(new Error('no OAuth context on the request'), '');
      states.issue(atsType, context, ttlSeconds, verifier).then(
        ({ state }) => callback(null, state),
        (error: Error) => callback(error, ''),
      );
    },
    verify(req: Request, state: string, _meta: unknown, callback: StateStoreVerifyCallback): void {
      const request = req as unknown as OAuthRequest;
      states.consume(atsType, state ?? '', request.browserNonce ?? '').then(
        (row) => {
          if (!row)
            return callback(null, false, {
              message: 'the state is unknown, used, expired, another ATS’s or not this browser’s',
            });
          request.verifiedState = row;
          // A state issued before PKCE has no verifier: `true` lets the exchange go on without one.
          (callback as (error: Error | null, ok: string | boolean, info: object) => void)(
            null,
            row.verifier ?? true,
            {},
          );
        },
        (error: Error) => callback(error, false, {}),
      );
    },
  } as unknown as StateStore;
}
