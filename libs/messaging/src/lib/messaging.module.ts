import {
  type BeforeApplicationShutdown,
  type DynamicModule,
  Inject,
  Injectable,
  Module,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
  type ModuleMetadata,
} from '@nestjs/common';
import { MessagePublisher } from './message-publisher';
import { QueueDepthReporter } from './queue-depth';
import { RabbitConnection } from './rabbitmq.connection';
import { type ConsumerOptions, RabbitMqServer } from './rabbitmq.server';
import { retryTiersOf } from './retry-policy';
import type { BrokerUsers } from './publisher-check';
import { RpcClient } from './rpc';

export interface MessagingOptions {
  url: string;
  /** The service name: the connection's name in the broker, and its reply queues' (one of BROKER_SERVICES). */
  serviceName: string;
  /** The queue this service consumes, if it consumes. */
  consumer?: ConsumerOptions;
  publishTimeoutMs?: number;
  /** Our services' broker users (RABBITMQ_USERS): the asker believes a reply only from the answering one's. */
  brokerUsers?: BrokerUsers;
  /** The broker set-up declares the queues (RabbitConnectionOptions.declaredBySetUp). */
  declaredBySetUp?: boolean;
}

export interface MessagingModuleAsyncOptions extends Pick<ModuleMetadata, 'imports'> {
  inject?: Array<string | symbol | (abstract new (...args: never[]) => unknown)>;
  useFactory: (...args: never[]) => MessagingOptions | Promise<MessagingOptions>;
}

export const MESSAGING_OPTIONS = Symbol('MESSAGING_OPTIONS');

/**
 * Starts reporting the queue's depth; at shutdown closes the consumer first (drain in-flight work), then the
 * publisher and the connection.
 */
@Injectable()
class MessagingLifecycle implements OnApplicationBootstrap, BeforeApplicationShutdown, OnApplicationShutdown {
  constructor(
    private readonly connection: RabbitConnection,
    private readonly publisher: MessagePublisher,
    @Inject(MESSAGING_OPTIONS) private readonly options: MessagingOptions,
    private readonly server: RabbitMqServer,
    private readonly rpc: RpcClient,
    @Inject(QueueDepthReporter) private readonly queueDepth: QueueDepthReporter | null,
  ) {}

  onApplicationBootstrap(): void {
    this.queueDepth?.start();
  }

  async beforeApplicationShutdown(): Promise<void> {
    if (this.options.consumer) await this.server.close();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.queueDepth?.stop();
    await this.rpc.close().catch(() => undefined);
    await this.publisher.close().catch(() => undefined);
    await this.connection.close();
  }
}

/**
 * RabbitMQ for a service: one connection, a confirming publisher, and (when `consumer` is given) the
 * transport strategy to pass to `app.connectMicroservice({ strategy: app.get(RabbitMqServer) })`. Not global by
 * itself: each service's one global module (e.g. `CandidateSyncGlobalModule`) re-exports it to its features.
 */
@Module({})
export class MessagingModule {
  static forRootAsync(options: MessagingModuleAsyncOptions): DynamicModule {
    return {
      module: MessagingModule,
      imports: options.imports ?? [],
      providers: [
        { provide: MESSAGING_OPTIONS, inject: options.inject ?? [], useFactory: options.useFactory },
        {
          provide: RabbitConnection,
          inject: [MESSAGING_OPTIONS],
          useFactory: (o: MessagingOptions) =>
            new RabbitConnection({ url: o.url, name: o.serviceName, declaredBySetUp: o.declaredBySetUp }),
        },
        {
          provide: MessagePublisher,
          inject: [RabbitConnection, MESSAGING_OPTIONS],
          useFactory: (c: RabbitConnection, o: MessagingOptions) =>
            new MessagePublisher(c, o.publishTimeoutMs),
        },
        {
          provide: RabbitMqServer,
          inject: [RabbitConnection, MessagePublisher, MESSAGING_OPTIONS],
          useFactory: (c: RabbitConnection, p: MessagePublisher, o: MessagingOptions) =>
            new RabbitMqServer(c, p, o.consumer ?? { queue: `${o.serviceName}.unused`, bindings: [] }),
        },
        {
          provide: RpcClient,
          inject: [RabbitConnection, MESSAGING_OPTIONS],
          useFactory: (c: RabbitConnection, o: MessagingOptions) =>
            new RpcClient(c, o.serviceName, o.brokerUsers),
        },
        {
          provide: QueueDepthReporter,
          inject: [RabbitConnection, MESSAGING_OPTIONS],
          useFactory: (c: RabbitConnection, o: MessagingOptions) =>
            o.consumer ? new QueueDepthReporter(c, o.consumer.queue, retryTiersOf(o.consumer)) : null,
        },
        MessagingLifecycle,
      ],
      exports: [MESSAGING_OPTIONS, RabbitConnection, MessagePublisher, RabbitMqServer, RpcClient],
    };
  }
}
