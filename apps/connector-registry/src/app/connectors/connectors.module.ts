import { Module } from '@nestjs/common';
import { ConnectorMessagesController } from './connector-messages.controller';
import { ConnectorsController } from './connectors.controller';
import { ConnectorsService } from './connectors.service';
import { ConnectorKinds } from './kinds/connector-kinds';

@Module({
  controllers: [ConnectorsController, ConnectorMessagesController],
  providers: [ConnectorsService, ConnectorKinds],
  exports: [ConnectorsService, ConnectorKinds],
})
export class ConnectorsModule {}
