import { Module } from '@nestjs/common';
import { ConnectorsModule } from '../connectors/connectors.module';
import { MappingController } from './mapping.controller';
import { MappingService } from './mapping.service';
import { AuthModule } from '../auth/auth.module';
import { RepositoriesModule } from '../repositories/repositories.module';
import { ClientsModule } from '../clients/clients.module';

@Module({
  imports: [ConnectorsModule, AuthModule, RepositoriesModule, ClientsModule],
  controllers: [MappingController],
  providers: [MappingService],
})
export class MappingModule {}
