import type { FastifyInstance, FastifyRequest } from 'fastify';
import { formOf } from '../oauth.routes';
import { restTokenOf } from '../request-pipeline';
import { queryOf } from '../sandbox.context';
import type { AtsBDataCentre, DataCentreDirectory } from './data-centres';

/**
 * The router (the vendor-wide address): "If you do not use the correct URLs for a user, you will receive a 307
 * redirect to the correct data center" (Getting Started with REST). Whatever it can attribute goes on with a
 * 307 to the same path and query at the data centre that holds it (a 307 keeps the method and body):
 * - `/oauth/authorize` with a `username` (the login form, or `action=Login&username&password`) → the user's;
 * - `/oauth/token` → the data centre that issued the `code` or `refresh_token`;
 * - `/rest-services/login` → the one that issued the `access_token`;
 * - a data call under `/rest-services/{corpToken}/` → the one that holds the `BhRestToken` session.
 * Anything else is the router's own: its login page, `loginInfo`, and the refusals of anything unknown (it
 * holds no users, codes or tokens, so they are refused exactly as at a data centre that does not know them).
 */
export function registerRouterRoutes(app: FastifyInstance, directory: DataCentreDirectory): void {
  app.addHook('preValidation', async (request, reply) => {
    const target = holderOf(request, directory);
    if (!target) return;
    return reply
      .code(307)
      .header('location', `${target.url}${request.url}`)
      .header('cache-control', 'no-store')
      .send();
  });
}

function holderOf(request: FastifyRequest, directory: DataCentreDirectory): AtsBDataCentre | undefined {
  const path = request.url.split('?', 1)[0] ?? '';
  // As the endpoints read them: the login form's fields win over the query; the token's query wins over a form.
  const params = { ...formOf(request.body), ...queryOf(request) };
  switch (path) {
    case '/oauth/authorize':
      return directory.ofUser(formOf(request.body)['username'] ?? params['username']);
    case '/oauth/token':
      if (params['grant_type'] === 'authorization_code') return directory.issuerOf('code', params['code']);
      if (params['grant_type'] === 'refresh_token')
        return directory.issuerOf('refreshToken', params['refresh_token']);
      return undefined;
    case '/rest-services/login':
      return directory.issuerOf('accessToken', params['access_token']);
    case '/rest-services/loginInfo':
      return undefined;
    default:
      return path.startsWith('/rest-services/')
        ? directory.issuerOf('session', restTokenOf(request))
        : undefined;
  }
}
