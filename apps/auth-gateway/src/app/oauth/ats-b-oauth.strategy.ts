import type { Request } from 'express';
import type { oauth2tokenCallback } from 'oauth';
import OAuth2Strategy, {
  type StateStore,
  type StateStoreStoreCallback,
  type StateStoreVerifyCallback,
} from 'passport-oauth2';
import type { AtsBOAuthClient, AtsBTokenSet } from '@connector/ats-b';
import type { OAuthContext, OAuthStateStore } from './oauth-state.store';
import type { OAuthStateEntity } from './oauth-state.entity';

/** What a finished login yields: the tokens and the state's context. */
export interface AtsBLogin {
  tokens: AtsBTokenSet;
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
  | { kind: 'success'; login: AtsBLogin }
  | { kind: 'fail'; message: string }
  | { kind: 'error'; error: Error };

/**
 * ATS-B's authorization-code flow on passport-oauth2: it builds the authorize URL, asks our state store to
 * issue and verify `state`, handles `?error=` callbacks, and exchanges the code. The exchange itself goes
 * through AtsBOAuthClient because ATS-B wants the token parameters in the query string.
 */
export class AtsBOAuthStrategy extends OAuth2Strategy {
  constructor(
    options: {
      authorizeUrl: string;
      tokenUrl: string;
      clientId: string;
      clientSecret: string;
      callbackUrl: string;
    },
    states: OAuthStateStore,
    stateTtlSeconds: number,
    client: AtsBOAuthClient,
  ) {
    super(
      {
        authorizationURL: options.authorizeUrl,
        tokenURL: options.tokenUrl,
        clientID: options.clientId,
        clientSecret: options.clientSecret,
        callbackURL: options.callbackUrl,
        passReqToCallback: true,
        skipUserProfile: true,
        // PKCE (RFC 7636, S256): the verifier is kept sealed with the state and sent with the code.
        pkce: true, // S256
        state: true,
        store: stateStoreFor(states, stateTtlSeconds),
      },
      (
        req: Request,
        accessToken: string,
        refreshToken: string,
        params: { expires_in?: number },
        _profile: unknown,
        done: (error: Error | null, user?: AtsBLogin) => void,
      ) => {
        const state = (req as unknown as OAuthRequest).verifiedState;
        if (!state) return done(new Error('state was not verified'));
        done(null, {
          tokens: { accessToken, refreshToken, expiresInSeconds: params.expires_in ?? 600 },
          state,
        });
      },
    );
    // ATS-B takes the token request's parameters in the query string (ats-b.md), not the form body.
    this._oauth2.getOAuthAccessToken = (
      code: string,
      ...rest: [unknown, oauth2tokenCallback] | [oauth2tokenCallback]
    ) => {
      const callback = rest[rest.length - 1] as oauth2tokenCallback;
      const params = (rest.length === 2 ? rest[0] : {}) as { code_verifier?: unknown };
      const verifier = typeof params.code_verifier === 'string' ? params.code_verifier : undefined;
      client.exchangeCode(code, verifier).then(
        // oauth's callback type has no "no error" value; passport-oauth2 only checks it for truthiness.
        (tokens) =>
          callback(NO_ERROR, tokens.accessToken, tokens.refreshToken, {
            expires_in: tokens.expiresInSeconds,
          }),
        (error: Error) => callback(error, '', '', {}),
      );
    };
  }

  /** Runs the strategy once on `request` and resolves with what it decided. */
  run(request: OAuthRequest): Promise<StrategyOutcome> {
    return new Promise((resolve) => {
      // passport's per-request actions; an instance made for one request (Object.create) keeps them apart.
      const attempt = Object.create(this) as AtsBOAuthStrategy;
      attempt.redirect = (url: string) => resolve({ kind: 'redirect', url });
      attempt.success = (user: Express.User) => resolve({ kind: 'success', login: user as AtsBLogin });
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
 * passport-oauth2's state store interface over OAuthStateStore. With PKCE it calls `store` with the verifier
 * (it picks the call by the function's arity, so both take every parameter), and `verify` must hand the
 * verifier back as its "ok" value.
 */
function stateStoreFor(states: OAuthStateStore, ttlSeconds: number): StateStore {
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
      states.issue(context, ttlSeconds, verifier).then(
        ({ state }) => callback(null, state),
        (error: Error) => callback(error, ''),
      );
    },
    verify(req: Request, state: string, _meta: unknown, callback: StateStoreVerifyCallback): void {
      const request = req as unknown as OAuthRequest;
      states.consume(state ?? '', request.browserNonce ?? '').then(
        (row) => {
          if (!row)
            return callback(null, false, {
              message: 'the state is unknown, used, expired or not this browser’s',
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
