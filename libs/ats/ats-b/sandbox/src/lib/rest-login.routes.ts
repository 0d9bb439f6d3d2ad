import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AtsBError } from './ats-b.error';
import { queryOf, type SandboxContext } from './sandbox.context';

/** `loginInfo` (where the customer's data centre is) and `login` (access token → BhRestToken + restUrl). */
export function registerRestLoginRoutes(app: FastifyInstance, ctx: SandboxContext): void {
  app.get(
    '/rest-services/loginInfo',
    { config: { callKey: 'GET /rest-services/loginInfo' } },
    async (request) => {
      const username = queryOf(request)['username'];
      if (!username)
        throw AtsBError.badRequest("Missing required parameter 'username'", 'errors.missingParameter');
      if (!ctx.dataCentres)
        return { oauthUrl: `${ctx.baseUrl()}/oauth`, restUrl: `${ctx.baseUrl()}/rest-services` };
      // Several data centres: the user's, asked at any of them (a vendor-wide lookup). Unknown user: a choice.
      const info = ctx.dataCentres.directory.loginInfo(username);
      if (!info) throw new AtsBError(404, 'errors.userNotFound', `No user '${username}'`);
      return info;
    },
  );

  const login = async (request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> => {
    const q = queryOf(request);
    if (!q['version'])
      throw AtsBError.badRequest(
        "Missing required parameter 'version' (use version=*)",
        'errors.missingParameter',
      );
    const session = ctx.state.auth.login(q['access_token']);
    return reply.send({
      BhRestToken: session.token,
      restUrl: `${ctx.baseUrl()}/rest-services/${session.corpToken}/`,
    });
  };
  // Bullhorn accepts both verbs; the docs and this integration use POST.
  const config = { callKey: 'POST /rest-services/login', authCall: true };
  app.post('/rest-services/login', { config }, login);
  app.get('/rest-services/login', { config: { ...config, callKey: 'GET /rest-services/login' } }, login);
}
