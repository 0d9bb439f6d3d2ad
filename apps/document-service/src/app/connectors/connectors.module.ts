import { Module } from '@nestjs/common';
import { ConnectorDeletions } from '@connector/service-kit';
import { ConnectorStatusHandler } from './connector-status.handler';

@Module({ controllers: [ConnectorStatusHandler], providers: [ConnectorDeletions] })
export class ConnectorsModule {}
