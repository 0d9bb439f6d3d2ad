import { Module } from '@nestjs/common';
import { ConnectorsModule } from '../connectors/connectors.module';
import { AuthorizeController, OAuthCallbackController } from './oauth.controller';
import { OAuthService } from './oauth.service';
import { AuthModule } from '../auth/auth.module';
import { ClientsModule } from '../clients/clients.module';

@Module({
  imports: [ConnectorsModule, AuthModule, ClientsModule],
  controllers: [AuthorizeController, OAuthCallbackController],
  providers: [OAuthService],
})
export class OAuthModule {}
