import { Module } from '@nestjs/common';
import { AtsClientFactory } from '@connector/ats-client-factory';
import { AtsRegistry } from '@connector/ats-core';
import { VacancySources } from './vacancy-sources';

/** The registered adapters' vacancy sources (`vacancySource`), built with this process's clients. */
@Module({
  providers: [
    {
      provide: VacancySources,
      inject: [AtsRegistry, AtsClientFactory],
      useFactory: (registry: AtsRegistry, clients: AtsClientFactory) =>
        VacancySources.of(registry, {
          client: (connector, options) => clients.for(connector, options),
        }),
    },
  ],
  exports: [VacancySources],
})
export class SourcesModule {}
