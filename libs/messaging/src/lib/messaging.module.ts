import {
  type BeforeApplicationShutdown,
  type DynamicModule,
  Inject,
  Injectable,
  Module,
  type OnApplicationShutdown,
  type ModuleMetadata,
} from '@nestjs/common';
import { MessagePublisher } from './message-publisher';
import { RabbitConnection } from './rabbitmq.connection';
import { type ConsumerOptions, RabbitMqServer } from './rabbitmq.server';
import { RpcClient } from './rpc';

export interface MessagingOptions {
  url: string;
  /** The service name: the connection's name in the broker. */
  serviceName: string;
  /** The queue this service consumes, if it consumes. */
  consumer?: ConsumerOptions;
  publishTimeoutMs?: number;
}

export interface MessagingModuleAsyncOptions extends Pick<ModuleMetadata, 'imports'> {
  inject?: Array<string | symbol | (abstract new (...args: never[]) => unknown)>;
  useFactory: (...args: never[]) => MessagingOptions | Promise<MessagingOptions>;
}

export const MESSAGING_OPTIONS = Symbol('MESSAGING_OPTIONS');

/** Closes the consumer first (drain in-flight work), then the publisher and the connection. */
@Injectable()
class MessagingLifecycle implements BeforeApplicationShutdown, OnApplicationShutdown {
  constructor(
    private readonly connection: RabbitConnection,
    private readonly publisher: MessagePublisher,
    @Inject(MESSAGING_OPTIONS) private readonly options: MessagingOptions,
    private readonly server: RabbitMqServer,
    private readonly rpc: RpcClient,
  ) {}

  async beforeApplicationShutdown(): Promise<void> {
    if (this.options.consumer) await this.server.close();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.rpc.close().catch(() => undefined);
    await this.publisher.close().catch(() => undefined);
    await this.connection.close();
  }
}

/**
 * RabbitMQ for a service: one connection, a confirming publisher, and (when `consumer` is given) the
 * transport strategy to pass to `app.connectMicroservice({ strategy: app.get(RabbitMqServer) })`.
 */
@Module({})
export class MessagingModule {
  static forRootAsync(options: MessagingModuleAsyncOptions): DynamicModule {
    return {
      module: MessagingModule,
      global: true,
      imports: options.imports ?? [],
      providers: [
        { provide: MESSAGING_OPTIONS, inject: options.inject ?? [], useFactory: options.useFactory },
        {
          provide: RabbitConnection,
          inject: [MESSAGING_OPTIONS],
          useFactory: (o: MessagingOptions) => new RabbitConnection({ url: o.url, name: o.serviceName }),
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
          inject: [RabbitConnection],
          useFactory: (c: RabbitConnection) => new RpcClient(c),
        },
        MessagingLifecycle,
      ],
      exports: [MESSAGING_OPTIONS, RabbitConnection, MessagePublisher, RabbitMqServer, RpcClient],
    };
  }
}
