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
