import { type DynamicModule, Module } from '@nestjs/common';
import { Exchange, Queue, RoutingKey } from '@connector/contracts';
import { ServiceCoreModule } from '@connector/service-kit';
import { InboxModule } from './inbox/inbox.module';
import { SERVICE_NAME, type CandidateSyncConfig } from './candidate-sync.config';

/** candidate-sync: candidates and applications from the platform into the ATSs. */
@Module({})
export class AppModule {
  static forRoot(config: CandidateSyncConfig): DynamicModule {
    return {
      module: AppModule,
      imports: [
        ServiceCoreModule.forRoot({
          name: SERVICE_NAME,
          config,
          consumer: {
            queue: Queue.CandidateSync,
            bindings: [
              {
                exchange: Exchange.PlatformEvents,
                routingKeys: [
                  RoutingKey.CandidateCreated,
                  RoutingKey.CandidateUpdated,
                  RoutingKey.ApplicationSubmitted,
                  RoutingKey.ApplicationUpdated,
                ],
              },
            ],
          },
        }),
        InboxModule,
      ],
    };
  }
}
