import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { OAuthError } from './ats-b.error';
import { errorPage, loginPage } from './login-page.html';
import { answer, queryOf, type Query, type SandboxContext } from './sandbox.context';

/** `/oauth/authorize` (HTML login) and `/oauth/token` (code and refresh grants, parameters in the query). */
export function registerOAuthRoutes(app: FastifyInstance, ctx: SandboxContext): void {
  const { auth } = ctx.state;

  const authorize = (
    request: FastifyRequest,
    reply: FastifyReply,
    p: Query,
    submitted: boolean,
  ): FastifyReply => {
    const html = (status: number, body: string): FastifyReply =>
      reply.code(status).type('text/html; charset=utf-8').send(body);
    if (!auth.isKnownClient(p['client_id']))
      return html(400, errorPage('Invalid client', `Unknown client_id '${p['client_id'] ?? ''}'.`));
    const givenRedirect = p['redirect_uri'] || undefined;
    const redirectUri = givenRedirect ?? auth.defaultRedirect();
    // Never redirect to an address the client did not register: show the error here instead.
    if (!redirectUri || !auth.isRedirectAllowed(redirectUri)) {
      return html(
        400,
        errorPage(
          'Invalid redirect_uri',
          `redirect_uri '${givenRedirect ?? ''}' is not registered for this client.`,
        ),
      );
    }
    const clientId = p['client_id'] as string;
    const state = p['state'];
    const back = (params: Record<string, string>): FastifyReply => {
      const url = new URL(redirectUri);
      for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
      if (state !== undefined) url.searchParams.set('state', state);
      return reply.code(302).header('location', url.toString()).header('cache-control', 'no-store').send();
    };
    if ((p['response_type'] ?? 'code') !== 'code') return back({ error: 'unsupported_response_type' });
    // PKCE (RFC 7636): optional for this confidential client; when sent, checked here and bound to the code.
    const codeChallenge = p['code_challenge'] || undefined;
    const codeChallengeMethod = codeChallenge ? p['code_challenge_method'] || 'plain' : undefined;
    if (codeChallenge && !isValidPkceChallenge(codeChallenge, codeChallengeMethod)) {
      return back({
        error: 'invalid_request',
        error_description: 'code_challenge or code_challenge_method is invalid',
      });
    }
    const pkce = codeChallenge ? { codeChallenge, codeChallengeMethod } : {};
    const attempted =
      submitted || p['action'] === 'Login' || (p['username'] !== undefined && p['password'] !== undefined);
    if (!attempted) return html(200, loginPage({ clientId, redirectUri, state, ...pkce }));
    const username = p['username'];
    if (!auth.checkUser(username, p['password'])) {
      return html(
        401,
        loginPage({
          clientId,
          redirectUri,
          state,
          ...pkce,
          username,
          error: 'Invalid username or password.',
        }),
      );
    }
    const challenge = codeChallenge
      ? { challenge: codeChallenge, method: codeChallengeMethod as 'S256' | 'plain' }
      : undefined;
    return back({ code: auth.issueCode(username as string, clientId, givenRedirect ?? null, challenge) });
  };

  app.get('/oauth/authorize', { config: { callKey: 'GET /oauth/authorize' } }, async (request, reply) =>
    authorize(request, reply, queryOf(request), false),
  );
  app.post('/oauth/authorize', { config: { callKey: 'POST /oauth/authorize' } }, async (request, reply) =>
    authorize(request, reply, { ...queryOf(request), ...formOf(request.body) }, true),
  );

  const tokenParams = (request: FastifyRequest): Query => ({ ...formOf(request.body), ...queryOf(request) });
  app.post(
    '/oauth/token',
    {
      config: {
        authCall: true,
        callKey: (request) => {
          const grant = tokenParams(request)['grant_type'];
          return grant === 'authorization_code' || grant === 'refresh_token'
            ? `POST /oauth/token ${grant}`
            : 'POST /oauth/token';
        },
      },
    },
    async (request, reply) => {
      const p = tokenParams(request);
      reply.header('cache-control', 'no-store');
      const grant = p['grant_type'] ?? '';
      switch (grant) {
        case 'authorization_code':
          return answerToken(ctx, request, reply, () =>
            auth.exchangeCode({
              code: p['code'],
              clientId: p['client_id'],
              clientSecret: p['client_secret'],
              redirectUri: p['redirect_uri'],
              codeVerifier: p['code_verifier'],
            }),
          );
        case 'refresh_token':
          return answerToken(ctx, request, reply, () =>
            auth.refresh({
              refreshToken: p['refresh_token'],
              clientId: p['client_id'],
              clientSecret: p['client_secret'],
            }),
          );
        default:
          throw new OAuthError(
            400,
            grant ? 'unsupported_grant_type' : 'invalid_request',
            grant ? `grant_type '${grant}' is not supported` : 'grant_type is required',
          );
      }
    },
  );
}

/** A token grant may be "applied, then lost" (timeout-after-write) like any other write. */
function answerToken(
  ctx: SandboxContext,
  request: FastifyRequest,
  reply: FastifyReply,
  issue: () => unknown,
): FastifyReply {
  return answer(ctx, request, reply, 200, issue());
}

/** RFC 7636 §4.2: S256 challenges are 43 base64url characters; plain ones are verifiers (43..128 unreserved). */
function isValidPkceChallenge(challenge: string, method: string | undefined): boolean {
  if (method === 'S256') return /^[A-Za-z0-9_-]{43}$/.test(challenge);
  if (method === 'plain') return /^[A-Za-z0-9._~-]{43,128}$/.test(challenge);
  return false;
}

export function formOf(body: unknown): Query {
  if (typeof body !== 'object' || body === null) return {};
  const out: Query = {};
  for (const [k, v] of Object.entries(body as Record<string, unknown>)) if (typeof v === 'string') out[k] = v;
  return out;
}
