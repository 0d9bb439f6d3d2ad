import { Module } from '@nestjs/common';
import { AuthGatewayClient } from './auth-gateway.client';
import { VacancySyncClient } from './vacancy-sync.client';
import { CommonModule } from '../common/common.module';

/** The services the registry asks (request-reply over RabbitMQ). */
@Module({
  imports: [CommonModule],
  providers: [AuthGatewayClient, VacancySyncClient],
  exports: [AuthGatewayClient, VacancySyncClient],
})
export class ClientsModule {}
