import { type DynamicModule, Global, Inject, Injectable, Logger, Module } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntitySchema, MigrationInterface } from 'typeorm';
import type { EventEnvelope } from '@connector/contracts';
import { MessagingModule, type QueueBinding } from '@connector/messaging';
import {
  InboxMessageEntity,
  InboxMessageMigration1763700000001,
  InboxRepository,
  PersistenceModule,
} from '@connector/persistence';
import { HealthModule } from './health.module';
import type { ServiceConfig } from './service-config';

export const SERVICE_NAME = Symbol('SERVICE_NAME');

export interface ServiceCoreOptions {
  name: string;
  config: ServiceConfig & { PREFETCH?: number };
  /** The queue this service consumes and what it binds; none for a service that only publishes. */
  consumer?: { queue: string; bindings: QueueBinding[]; retryDelaysMs?: number[] };
  // eslint-disable-next-line @typescript-eslint/no-unsafe-function-type -- TypeORM's entity list takes class constructors
  entities?: Array<Function | EntitySchema>;
  migrations?: Array<new () => MigrationInterface>;
}

/** Records each message the first time it arrives; a redelivery of the same id is noticed. */
@Injectable()
export class InboxService {
  private readonly logger = new Logger(InboxService.name);
  private readonly repository: InboxRepository;

  constructor(
    @InjectDataSource() dataSource: DataSource,
    @Inject(SERVICE_NAME) private readonly service: string,
  ) {
    this.repository = new InboxRepository(dataSource);
  }

  /** True the first time this service sees the message id. */
  async receive(event: EventEnvelope): Promise<boolean> {
    const first = await this.repository.record(this.service, event);
    this.logger.log(`${first ? 'received' : 'already had'} ${event.type} ${event.id}`);
    return first;
  }
}

/**
 * What every service is built on: Postgres with its migrations, RabbitMQ with its queue, `/health`, and the
 * inbox. A service's AppModule imports this once and adds its feature modules.
 */
@Global()
@Module({})
export class ServiceCoreModule {
  static forRoot(options: ServiceCoreOptions): DynamicModule {
    const { config } = options;
    return {
      module: ServiceCoreModule,
      imports: [
        PersistenceModule.forRootAsync({
          useFactory: () => ({
            url: config.DATABASE_URL,
            service: options.name,
            entities: [InboxMessageEntity, ...(options.entities ?? [])],
            migrations: [InboxMessageMigration1763700000001, ...(options.migrations ?? [])],
            migrationsRun: config.MIGRATIONS_RUN === 'true',
          }),
        }),
        MessagingModule.forRootAsync({
          useFactory: () => ({
            url: config.RABBITMQ_URL,
            serviceName: options.name,
            consumer: options.consumer && { ...options.consumer, prefetch: config.PREFETCH },
          }),
        }),
        HealthModule,
      ],
      providers: [{ provide: SERVICE_NAME, useValue: options.name }, InboxService],
      exports: [SERVICE_NAME, InboxService, PersistenceModule],
    };
  }
}
