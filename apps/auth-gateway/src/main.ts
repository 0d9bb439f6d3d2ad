import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { ConfigError, createPinoLogger, JsonLogger, loadConfig, runService } from '@connector/service-kit';
import { AppModule } from './app/app.module';
import { AuthGatewayConfig, SERVICE_NAME } from './app/auth-gateway.config';
import { ResealService } from './app/credentials/reseal.service';

/** `npm run reseal`: every stored secret under the newest ENCRYPTION_KEYS key, then exit. */
async function reseal(): Promise<void> {
  let config: AuthGatewayConfig;
  try {
    config = loadConfig(AuthGatewayConfig);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    process.stderr.write(`${SERVICE_NAME}: ${error.message}\n`);
    process.exit(1);
  }
  const logger = new JsonLogger(createPinoLogger(SERVICE_NAME, config.LOG_LEVEL));
  const context = await NestFactory.createApplicationContext(AppModule.forRoot(config), { logger });
  try {
    const report = await context.get(ResealService).resealAll();
    process.stdout.write(`${JSON.stringify(report)}\n`);
  } finally {
    await context.close();
  }
  process.exit(0);
}

if (process.argv.includes('--reseal')) {
  reseal().catch((error: unknown) => {
    process.stderr.write(`${SERVICE_NAME}: reseal failed: ${(error as Error).message}\n`);
    process.exit(1);
  });
} else {
  void runService({
    name: SERVICE_NAME,
    Config: AuthGatewayConfig,
    module: (config) => AppModule.forRoot(config),
    consumes: true,
  });
}
