import { Module } from '@nestjs/common';
import { ConnectorsModule } from '../connectors/connectors.module';
import { AuthorizeController, OAuthCallbackController } from './oauth.controller';
import { OAuthService } from './oauth.service';

@Module({
  imports: [ConnectorsModule],
  controllers: [AuthorizeController, OAuthCallbackController],
  providers: [OAuthService],
})
export class OAuthModule {}
