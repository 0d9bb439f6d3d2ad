import 'reflect-metadata';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { DynamicModule, INestApplication, Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { register } from 'prom-client';
import {
  type BrokerService,
  MissingExchangesError,
  RabbitConnection,
  startRabbitMqConsumer,
} from '@connector/messaging';
import { startTracing, type TracingHandle } from '@connector/observability';
import { DatabaseRightsError } from '@connector/persistence';
import { httpObserver } from './http-observer';
import { createPinoLogger, JsonLogger } from './json-logger';
import { brokerUserProblem, ConfigError, loadConfig, type ServiceConfig } from './service-config';

export interface RunServiceOptions<C extends ServiceConfig> {
  name: BrokerService;
  Config: new () => C;
  /** Builds the root module from the validated config. */
  module: (config: C) => DynamicModule | Type<unknown>;
  /** Whether the service consumes its RabbitMQ queue. */
  consumes: boolean;
  configure?: (app: INestApplication, config: C) => void | Promise<void>;
}

/**
 * The whole life of a service process: validate config (exit 1 naming the bad variable), JSON logs, traces
 * when OTEL_EXPORTER_OTLP_ENDPOINT is set, HTTP (health, metrics and APIs, each request logged), the RabbitMQ
 * consumer, and a graceful stop on SIGTERM/SIGINT.
 */
export async function runService<C extends ServiceConfig>(
  options: RunServiceOptions<C>,
): Promise<INestApplication> {
  let config: C;
  try {
    config = loadConfig(options.Config);
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${options.name}: ${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
  const logger = new JsonLogger(createPinoLogger(options.name, config.LOG_LEVEL));
  if (process.argv.includes('--migrate')) {
    // `npm run migrate`: apply pending migrations and exit, without serving or consuming anything.
    config.MIGRATIONS_RUN = 'true';
    const context = await NestFactory.createApplicationContext(options.module(config), { logger });
    logger.log(`${options.name}: migrations are up to date`, 'Migrate');
    await context.close();
    process.exit(0);
  }
  // Not for --migrate: the migrate step runs every service's migrations with one RABBITMQ_URL.
  const brokerProblem = brokerUserProblem(options.name, config);
  if (brokerProblem) {
    process.stderr.write(`${options.name}: ${brokerProblem}\n`);
    process.exit(1);
  }
  // Before anything connects: the HTTP and Postgres modules are patched when they are first loaded.
  const tracing = await startTracing(options.name);
  // Not aborted by Nest on a failed start: a role without its rights gets one clear line and exit 1.
  const app = await NestFactory.create(options.module(config), {
    logger,
    bufferLogs: true,
    abortOnError: false,
  }).catch((error: unknown) => {
    if (!(error instanceof DatabaseRightsError)) throw error;
    process.stderr.write(`${options.name} cannot start: ${error.message}\n`);
    process.exit(1);
  });
  app.use(httpObserver());
  const metricsPort = config.METRICS_PORT
    ? await serveMetricsApart(config.HOST, Number(config.METRICS_PORT))
    : 0;
  if (metricsPort) app.use('/metrics', notFound);
  await options.configure?.(app, config);
  exitWhenConsumersCannotRecover(app, logger, options.name);
  if (options.consumes) {
    try {
      await startRabbitMqConsumer(app);
    } catch (error) {
      // The broker set-up never created the shared exchanges: one clear line, not a stack trace.
      if (!(error instanceof MissingExchangesError)) throw error;
      logger.error(`${options.name} cannot start: ${error.message}`, undefined, 'Bootstrap');
      await app.close().catch(() => undefined);
      process.exit(1);
    }
  }
  await app.listen(config.PORT, config.HOST);
  const address = app.getHttpServer().address() as { port: number };
  const metrics = metricsPort ? `http://${config.HOST}:${metricsPort}/metrics` : '/metrics';
  logger.log(
    `${options.name} ready on http://${config.HOST}:${address.port} (health: /health, metrics: ${metrics})` +
      (tracing ? ', sending traces' : ''),
    'Bootstrap',
  );
  stopOnSignals(app, logger, tracing);
  return app;
}

/**
 * A consumer that cannot come back (its queue cannot be declared again, the exchanges are gone): exit 1 after
 * a bounded stop, so the supervisor restarts the process rather than leave it up and deaf.
 */
function exitWhenConsumersCannotRecover(app: INestApplication, logger: JsonLogger, name: string): void {
  let connection: RabbitConnection;
  try {
    connection = app.get(RabbitConnection, { strict: false });
  } catch {
    return; // no broker connection in this service
  }
  connection.onFatal((error) => {
    logger.error(`${name} cannot consume again, exiting: ${error.message}`, undefined, 'Bootstrap');
    const stopped = new Promise((resolve) => setTimeout(resolve, 10_000).unref());
    void Promise.race([app.close().catch(() => undefined), stopped]).then(() => process.exit(1));
  });
}

/** `/metrics` (prom-client's default registry, as MetricsModule serves it) on its own port; the port bound. */
async function serveMetricsApart(host: string, port: number): Promise<number> {
  const server = createServer((request, response) => {
    if (request.method !== 'GET' || request.url?.split('?')[0] !== '/metrics')
      return notFound(request, response);
    register.metrics().then(
      (text) => {
        response.setHeader('Content-Type', register.contentType);
        response.end(text);
      },
      () => {
        response.statusCode = 500;
        response.end();
      },
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, resolve);
  });
  server.unref(); // never what keeps the process alive
  return (server.address() as AddressInfo).port;
}

function notFound(_request: IncomingMessage, response: ServerResponse): void {
  response.statusCode = 404;
  response.end();
}

/** Stop taking messages, finish in-flight ones, close connections, exit 0; a second signal exits at once. */
function stopOnSignals(app: INestApplication, logger: JsonLogger, tracing?: TracingHandle): void {
  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) process.exit(1);
    stopping = true;
    logger.log(`${signal}: shutting down`, 'Bootstrap');
    app
      .close()
      // The last spans go out if they can; a collector that is gone does not fail the stop.
      .then(() => tracing?.shutdown().catch(() => undefined))
      .then(
        () => {
          logger.log('stopped', 'Bootstrap');
          process.exit(0);
        },
        (error: unknown) => {
          logger.error(error, 'Bootstrap');
          process.exit(1);
        },
      );
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}
