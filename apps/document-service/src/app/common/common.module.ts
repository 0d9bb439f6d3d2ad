import { type DynamicModule, Global, Module } from '@nestjs/common';
import { DocumentServiceConfig } from '../document-service.config';
import { CandidateLocks } from './candidate-locks';
import { DocumentEvents } from './document-events';

/**
 * What every feature of document-service uses: the validated config, candidate locks and the outgoing events.
 */
@Global()
@Module({})
export class CommonModule {
  static forRoot(config: DocumentServiceConfig): DynamicModule {
    return {
      module: CommonModule,
      providers: [{ provide: DocumentServiceConfig, useValue: config }, CandidateLocks, DocumentEvents],
      exports: [DocumentServiceConfig, CandidateLocks, DocumentEvents],
    };
  }
}
