import { type DynamicModule, Module } from '@nestjs/common';
import { Exchange, Queue, RoutingKey } from '@connector/contracts';
import { ServiceCoreModule } from '@connector/service-kit';
import { InboxModule } from './inbox/inbox.module';
import { SERVICE_NAME, type VacancySyncConfig } from './vacancy-sync.config';

/** vacancy-sync: live vacancies from the ATSs into the platform. */
@Module({})
export class AppModule {
  static forRoot(config: VacancySyncConfig): DynamicModule {
    return {
      module: AppModule,
      imports: [
        ServiceCoreModule.forRoot({
          name: SERVICE_NAME,
          config,
          consumer: {
            queue: Queue.VacancySync,
            bindings: [{ exchange: Exchange.Internal, routingKeys: [RoutingKey.RunRequested] }],
          },
        }),
        InboxModule,
      ],
    };
  }
}
