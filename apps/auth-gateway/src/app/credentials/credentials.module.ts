import { Module } from '@nestjs/common';
import { AtsBOAuthClient } from '@connector/ats-clients';
import { AuthGatewayConfig } from '../auth-gateway.config';
import { SecretBox } from '../crypto/secret-box';
import { AtsACredentialIssuer } from '../issuers/ats-a-credential.issuer';
import { AtsBCredentialIssuer } from '../issuers/ats-b-credential.issuer';
import { AtsBOAuthStrategy } from '../oauth/ats-b-oauth.strategy';
import { OAuthController } from '../oauth/oauth.controller';
import { OAuthStateStore } from '../oauth/oauth-state.store';
import { OAuthService } from '../oauth/oauth.service';
import { AtsASetupService } from './ats-a-setup.service';
import { CREDENTIAL_ISSUERS } from './credential-issuer';
import { CredentialsController } from './credentials.controller';
import { CredentialsRepository } from './credentials.repository';
import { CredentialsService } from './credentials.service';

@Module({
  controllers: [CredentialsController, OAuthController],
  providers: [
    {
      provide: SecretBox,
      inject: [AuthGatewayConfig],
      useFactory: (c: AuthGatewayConfig) => SecretBox.fromEnv(c.ENCRYPTION_KEYS),
    },
    {
      provide: AtsBOAuthClient,
      inject: [AuthGatewayConfig],
      useFactory: (c: AuthGatewayConfig) =>
        new AtsBOAuthClient({
          clientId: c.ATS_B_CLIENT_ID,
          clientSecret: c.ATS_B_CLIENT_SECRET,
          redirectUri: c.ATS_B_REDIRECT_URI,
          oauthUrl: c.ATS_B_OAUTH_URL,
          restLoginUrl: c.ATS_B_REST_LOGIN_URL,
        }),
    },
    {
      provide: AtsBOAuthStrategy,
      inject: [AuthGatewayConfig, OAuthStateStore, AtsBOAuthClient],
      useFactory: (c: AuthGatewayConfig, states: OAuthStateStore, client: AtsBOAuthClient) =>
        new AtsBOAuthStrategy(
          {
            authorizeUrl: c.ATS_B_AUTHORIZE_URL || `${c.ATS_B_OAUTH_URL}/authorize`,
            tokenUrl: `${c.ATS_B_OAUTH_URL}/token`,
            clientId: c.ATS_B_CLIENT_ID,
            clientSecret: c.ATS_B_CLIENT_SECRET,
            callbackUrl: c.ATS_B_REDIRECT_URI,
          },
          states,
          c.OAUTH_STATE_TTL_SECONDS,
          client,
        ),
    },
    AtsACredentialIssuer,
    AtsBCredentialIssuer,
    {
      provide: CREDENTIAL_ISSUERS,
      inject: [AtsACredentialIssuer, AtsBCredentialIssuer],
      useFactory: (a: AtsACredentialIssuer, b: AtsBCredentialIssuer) => [a, b],
    },
    OAuthStateStore,
    CredentialsRepository,
    CredentialsService,
    AtsASetupService,
    OAuthService,
  ],
})
export class CredentialsModule {}
