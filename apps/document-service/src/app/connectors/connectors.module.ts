import { Module } from '@nestjs/common';
import { ConnectorDeletions } from '@connector/service-kit';
import { CommonModule } from '../common/common.module';
import { ConnectorStatusHandler } from './connector-status.handler';

@Module({ imports: [CommonModule], controllers: [ConnectorStatusHandler], providers: [ConnectorDeletions] })
export class ConnectorsModule {}
