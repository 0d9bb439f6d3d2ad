import { Controller, Get, HttpCode, Inject, Param, Post, Query, Req, Res } from '@nestjs/common';
import { ApiExcludeEndpoint, ApiOperation, ApiResponse } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { OAUTH_CALLBACK_PATH } from '@connector/contracts';
import { Admin } from '../auth/admin.decorator';
import type { AdminIdentity } from '../auth/api-keys';
import { ApiController } from '../common/api';
import { ConnectorRegistryConfig } from '../connector-registry.config';
import { clearedNonceCookie, nonceCookie, readNonce } from './oauth-cookie';
import { oauthProblemPage } from './oauth-page.html';
import { OAuthService } from './oauth.service';
import { AuthorizeResponse, ErrorResponse } from '../common/api-responses';

type Config = Pick<ConnectorRegistryConfig, 'ADMIN_PAGE_PATH' | 'PUBLIC_URL'>;

/** Cookies are `Secure` whenever the admin page is reached over https (directly or behind a TLS proxy). */
function isHttps(config: Config, request: Request): boolean {
  return config.PUBLIC_URL.startsWith('https:') || request.secure;
}

@ApiController('connectors/:id/authorize', 'connectors')
export class AuthorizeController {
  constructor(
    private readonly oauth: OAuthService,
    @Inject(ConnectorRegistryConfig) private readonly config: Config,
  ) {}

  @Post()
  @HttpCode(200)
  @ApiOperation({
    summary:
      'An ATS with an interactive login: the login URL to open; sets the browser cookie that binds the login',
  })
  @ApiResponse({ status: 200, description: 'the login URL', type: AuthorizeResponse })
  @ApiResponse({
    status: 400,
    description: 'NOT_INTERACTIVE_LOGIN: the ATS has no interactive login',
    type: ErrorResponse,
  })
  async authorize(
    @Admin() admin: AdminIdentity,
    @Param('id') id: string,
    @Req() request: Request,
    @Res({ passthrough: true }) response: Response,
  ): Promise<{ authorizeUrl: string }> {
    const { authorizeUrl, nonce, state } = await this.oauth.start(admin, id);
    response.setHeader('Set-Cookie', nonceCookie(state, nonce, isHttps(this.config, request)));
    return { authorizeUrl };
  }
}

/** Where the browser comes back from the ATS login: no API key here, the cookie binds it. */
@Controller()
export class OAuthCallbackController {
  constructor(
    private readonly oauth: OAuthService,
    @Inject(ConnectorRegistryConfig) private readonly config: Config,
  ) {}

  /** `/oauth/{type}/callback`: the ATS whose login this is (ATS-B's path is `/oauth/ats-b/callback`). */
  @Get(OAUTH_CALLBACK_PATH)
  @ApiExcludeEndpoint()
  async callback(
    @Param('type') type: string,
    @Query() query: Record<string, unknown>,
    @Req() request: Request,
    @Res() response: Response,
  ): Promise<void> {
    const text = (value: unknown) => (typeof value === 'string' ? value : undefined);
    const state = text(query.state);
    const outcome = await this.oauth.complete({
      type,
      code: text(query.code),
      state,
      error: text(query.error),
      nonce: state ? readNonce(request.headers.cookie, state) : undefined,
    });
    response.setHeader('Cache-Control', 'no-store');
    if (outcome.ok) {
      response.setHeader('Set-Cookie', clearedNonceCookie(state ?? '', isHttps(this.config, request)));
      const page = `${this.config.ADMIN_PAGE_PATH.replace(/\/$/, '')}/connectors/${encodeURIComponent(outcome.connectorId)}`;
      response.redirect(302, `${page}?authorized=1`);
      return;
    }
    response
      .status(outcome.status)
      .type('html')
      .send(oauthProblemPage(outcome.title, outcome.explanation, this.config.ADMIN_PAGE_PATH));
  }
}
