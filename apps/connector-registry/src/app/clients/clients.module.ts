import { Global, Module } from '@nestjs/common';
import { AuthGatewayClient } from './auth-gateway.client';
import { VacancySyncClient } from './vacancy-sync.client';

/** The services the registry asks (request-reply over RabbitMQ). */
@Global()
@Module({
  providers: [AuthGatewayClient, VacancySyncClient],
  exports: [AuthGatewayClient, VacancySyncClient],
})
export class ClientsModule {}
