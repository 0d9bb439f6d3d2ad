import { type DynamicModule, Module } from '@nestjs/common';
import type { EntitySchema, MigrationInterface } from 'typeorm';
import {
  type BrokerService,
  type ConsumerOptions,
  MessagingModule,
  outsideHeaderFilter,
  publisherCheck,
  SERVICE_CONSUMES,
} from '@connector/messaging';
import { PersistenceModule, type RetentionRule, type SharedSchema } from '@connector/persistence';
import { HealthModule } from './health.module';
import { MetricsModule } from './metrics.module';
import { RETENTION_OPTIONS, RetentionService } from './retention.service';
import { brokerUsersOf, type ServiceConfig } from './service-config';

/** A service's consumer settings (its config class declares them with its own defaults). */
interface ConsumerSettings {
  PREFETCH?: number;
  CONCURRENCY?: number;
  PER_KEY_CONCURRENCY?: number;
  PER_KEY_BUFFERED?: number;
  REQUEST_CONCURRENCY?: number;
}

export interface ServiceCoreOptions {
  name: BrokerService;
  config: ServiceConfig & ConsumerSettings;
  /**
   * This service's consumer (its queue and bindings are SERVICE_CONSUMES', which the broker set-up declares
   * too); none for a service that only publishes.
   */
  consumer?: Pick<ConsumerOptions, 'retryDelaysMs' | 'requestConcurrency'>;
  // eslint-disable-next-line @typescript-eslint/no-unsafe-function-type -- TypeORM's entity list takes class constructors
  entities?: Array<Function | EntitySchema>;
  migrations?: Array<new () => MigrationInterface>;
  /** Libs' tables the service uses (their owning migrations run in the lib's history). */
  shared?: SharedSchema[];
  /** Its tables without an entity (hand-written SQL only), which its database role needs too. */
  tables?: string[];
  /** What the service deletes once kept long enough (a job in every process, RETENTION_INTERVAL_MS). */
  retention?: RetentionRule[];
  /** Postgres connections of this process (default 10): a service with many handlers sizes it to them. */
  poolSize?: number;
}

/**
 * What every service is built on: Postgres with its migrations, RabbitMQ with its queue, `/health` and
 * `/metrics`. A service's AppModule builds it once and the service's global module (e.g.
 * `CandidateSyncGlobalModule`) re-exports it, so a feature module injects the publisher or the RPC client as is.
 */
@Module({})
export class ServiceCoreModule {
  static forRoot(options: ServiceCoreOptions): DynamicModule {
    const { config, consumer } = options;
    const { queue, bindings } = SERVICE_CONSUMES[options.name];
    const persistence = PersistenceModule.forRootAsync({
      useFactory: () => ({
        url: config.DATABASE_URL,
        service: options.name,
        entities: options.entities ?? [],
        migrations: options.migrations ?? [],
        shared: options.shared ?? [],
        tables: options.tables ?? [],
        migrationsRun: config.MIGRATIONS_RUN === 'true',
        ...(options.poolSize ? { poolSize: options.poolSize } : {}),
      }),
    });
    const messaging = MessagingModule.forRootAsync({
      useFactory: () => ({
        url: config.RABBITMQ_URL,
        serviceName: options.name,
        brokerUsers: brokerUsersOf(config),
        // A broker user of its own (RABBITMQ_USERS) may declare no queue: the broker set-up does.
        declaredBySetUp: config.RABBITMQ_USERS !== '',
        consumer: consumer && {
          ...consumer,
          queue,
          bindings,
          prefetch: config.PREFETCH,
          concurrency: config.CONCURRENCY,
          perKeyConcurrency: config.PER_KEY_CONCURRENCY,
          perKeyBuffered: config.PER_KEY_BUFFERED,
          defaultRequestConcurrency: config.REQUEST_CONCURRENCY,
          handlerTimeoutMs: config.HANDLER_TIMEOUT_MS,
          deliveryLimit: config.DELIVERY_LIMIT,
          verifyPublisher: publisherCheck(options.name, brokerUsersOf(config)),
          dropOutsideHeaders: outsideHeaderFilter(options.name, brokerUsersOf(config)),
        },
      }),
    });
    return {
      module: ServiceCoreModule,
      imports: [persistence, messaging, HealthModule.forRoot(messaging), MetricsModule],
      providers: [
        {
          provide: RETENTION_OPTIONS,
          useValue: { rules: options.retention ?? [], intervalMs: config.RETENTION_INTERVAL_MS },
        },
        RetentionService,
      ],
      exports: [persistence, messaging, RetentionService],
    };
  }
}
