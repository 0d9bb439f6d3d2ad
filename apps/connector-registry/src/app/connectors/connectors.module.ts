import { Module } from '@nestjs/common';
import { BudgetModule } from '../budget/budget.module';
import { ConnectorMessagesController } from './connector-messages.controller';
import { ConnectorsController } from './connectors.controller';
import { ConnectorsService } from './connectors.service';
import { ConnectorKinds } from './kinds/connector-kinds';
import { AuthModule } from '../auth/auth.module';
import { RepositoriesModule } from '../repositories/repositories.module';
import { ClientsModule } from '../clients/clients.module';

@Module({
  imports: [BudgetModule, AuthModule, RepositoriesModule, ClientsModule],
  controllers: [ConnectorsController, ConnectorMessagesController],
  providers: [ConnectorsService, ConnectorKinds],
  exports: [ConnectorsService, ConnectorKinds],
})
export class ConnectorsModule {}
