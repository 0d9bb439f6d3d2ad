import { type DynamicModule, Module } from '@nestjs/common';
import { Exchange, Queue, RoutingKey } from '@connector/contracts';
import { ServiceCoreModule } from '@connector/service-kit';
import { InboxModule } from './inbox/inbox.module';
import { SERVICE_NAME, type DocumentServiceConfig } from './document-service.config';

/** document-service: CVs and documents from the platform into the ATSs. */
@Module({})
export class AppModule {
  static forRoot(config: DocumentServiceConfig): DynamicModule {
    return {
      module: AppModule,
      imports: [
        ServiceCoreModule.forRoot({
          name: SERVICE_NAME,
          config,
          consumer: {
            queue: Queue.DocumentService,
            bindings: [{ exchange: Exchange.PlatformEvents, routingKeys: [RoutingKey.DocumentUploaded] }],
          },
        }),
        InboxModule,
      ],
    };
  }
}
