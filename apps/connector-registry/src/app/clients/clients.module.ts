import { Module } from '@nestjs/common';
import { AuthGatewayClient } from './auth-gateway.client';
import { VacancySyncClient } from './vacancy-sync.client';

/** The services the registry asks (request-reply over RabbitMQ). */
@Module({
  providers: [AuthGatewayClient, VacancySyncClient],
  exports: [AuthGatewayClient, VacancySyncClient],
})
export class ClientsModule {}
