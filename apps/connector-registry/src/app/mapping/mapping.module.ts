import { Module } from '@nestjs/common';
import { ConnectorsModule } from '../connectors/connectors.module';
import { MappingController } from './mapping.controller';
import { MappingService } from './mapping.service';

@Module({ imports: [ConnectorsModule], controllers: [MappingController], providers: [MappingService] })
export class MappingModule {}
