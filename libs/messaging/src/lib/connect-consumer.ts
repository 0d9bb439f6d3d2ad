import {
  type ArgumentsHost,
  Catch,
  type INestApplication,
  type INestMicroservice,
  type RpcExceptionFilter,
} from '@nestjs/common';
import { type Observable, throwError } from 'rxjs';
import { RabbitMqServer } from './rabbitmq.server';

/**
 * Nest's default RPC filter replaces every error with "Internal server error"; the transport needs the
 * error itself to tell a permanent failure from a transient one, so handlers' errors pass through.
 */
@Catch()
export class PassThroughRpcFilter implements RpcExceptionFilter<unknown> {
  catch(exception: unknown, _host: ArgumentsHost): Observable<never> {
    return throwError(() => exception);
  }
}

/** Attaches the RabbitMQ consumer to an HTTP app (for /health); call `app.startAllMicroservices()` after. */
export function connectRabbitMqConsumer(app: INestApplication): INestMicroservice {
  const microservice = app.connectMicroservice(
    { strategy: app.get(RabbitMqServer) },
    {
      inheritAppConfig: false,
      deferInitialization: true, // so the filter is in place before handlers are bound
    },
  );
  microservice.useGlobalFilters(new PassThroughRpcFilter());
  return microservice;
}

/**
 * Attaches the RabbitMQ consumer to an HTTP app and starts it, with the app's lifecycle hooks run once,
 * before the consumer takes a message. A consumer attached with `deferInitialization` (so its filter is in
 * place first) would otherwise run every module's `onModuleInit` and `onApplicationBootstrap` itself, and the
 * app's own init a second time: two schedulers, two retention timers, two outbox relays in one process.
 */
export async function startRabbitMqConsumer(app: INestApplication): Promise<void> {
  const consumer = connectRabbitMqConsumer(app);
  await app.init();
  // The hooks above were the app's, on the one container the consumer shares: it must not call them again.
  (consumer as unknown as { setIsInitHookCalled(called: boolean): void }).setIsInitHookCalled(true);
  await app.startAllMicroservices();
}
