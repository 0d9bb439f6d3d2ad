import { Module } from '@nestjs/common';
import { BudgetModule } from '../budget/budget.module';
import { ConnectorLookupHandler } from './connector-lookup.handler';
import { ConnectorStatusChangedHandler } from './connector-status-changed.handler';
import { ConnectorsByAccountHandler } from './connectors-by-account.handler';
import { ConnectorTypesController } from './connector-types.controller';
import { ConnectorsController } from './connectors.controller';
import { ConnectorsService } from './connectors.service';
import { EventFeedService } from './event-feed.service';
import { ConnectorKinds } from './kinds/connector-kinds';
import { AuthModule } from '../auth/auth.module';
import { RepositoriesModule } from '../repositories/repositories.module';
import { ClientsModule } from '../clients/clients.module';

@Module({
  imports: [BudgetModule, AuthModule, RepositoriesModule, ClientsModule],
  controllers: [
    ConnectorsController,
    ConnectorTypesController,
    ConnectorStatusChangedHandler,
    ConnectorLookupHandler,
    ConnectorsByAccountHandler,
  ],
  providers: [ConnectorsService, EventFeedService, ConnectorKinds],
  exports: [ConnectorsService, ConnectorKinds],
})
export class ConnectorsModule {}
