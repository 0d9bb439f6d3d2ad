import { Module } from '@nestjs/common';
import { AtsClientFactory } from '@connector/ats-access';
import { atsRegistry } from '@connector/ats-registry';
import { VacancySources } from './vacancy-sources';

/** The registered adapters' vacancy sources (`vacancySource`), built with this process's clients. */
@Module({
  providers: [
    {
      provide: VacancySources,
      inject: [AtsClientFactory],
      useFactory: (clients: AtsClientFactory) =>
        VacancySources.of(atsRegistry.all(), {
          client: (connector, options) => clients.for(connector, options),
        }),
    },
  ],
  exports: [VacancySources],
})
export class SourcesModule {}
