import { type DynamicModule, Module } from '@nestjs/common';
import { Exchange, Queue, RoutingKey } from '@connector/contracts';
import { MessagingModule } from '@connector/messaging';
import {
  InboxMessageEntity,
  InboxMessageMigration1763700000001,
  PersistenceModule,
} from '@connector/persistence';
import { HealthModule } from '@connector/service-kit';
import { InboxModule } from './inbox/inbox.module';
import { SERVICE_NAME, type DocumentServiceConfig } from './document-service.config';

/** document-service: CVs and documents from the platform into the ATSs. */
@Module({})
export class AppModule {
  static forRoot(config: DocumentServiceConfig): DynamicModule {
    return {
      module: AppModule,
      imports: [
        PersistenceModule.forRootAsync({
          useFactory: () => ({
            url: config.DATABASE_URL,
            service: SERVICE_NAME,
            entities: [InboxMessageEntity],
            migrations: [InboxMessageMigration1763700000001],
            migrationsRun: config.MIGRATIONS_RUN === 'true',
          }),
        }),
        MessagingModule.forRootAsync({
          useFactory: () => ({
            url: config.RABBITMQ_URL,
            serviceName: SERVICE_NAME,
            consumer: {
              queue: Queue.DocumentService,
              prefetch: config.PREFETCH,
              bindings: [{ exchange: Exchange.PlatformEvents, routingKeys: [RoutingKey.DocumentUploaded] }],
            },
          }),
        }),
        HealthModule,
        InboxModule,
      ],
    };
  }
}
