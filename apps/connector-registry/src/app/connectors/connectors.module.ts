import { Module } from '@nestjs/common';
import { BudgetModule } from '../budget/budget.module';
import { ConnectorMessagesController } from './connector-messages.controller';
import { ConnectorsController } from './connectors.controller';
import { ConnectorsService } from './connectors.service';
import { ConnectorKinds } from './kinds/connector-kinds';

@Module({
  imports: [BudgetModule],
  controllers: [ConnectorsController, ConnectorMessagesController],
  providers: [ConnectorsService, ConnectorKinds],
  exports: [ConnectorsService, ConnectorKinds],
})
export class ConnectorsModule {}
