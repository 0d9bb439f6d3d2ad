import { plainToInstance, Type } from 'class-transformer';
import {
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  Matches,
  Max,
  Min,
  validateSync,
  type ValidationError,
} from 'class-validator';

export const NODE_ENVS = ['development', 'production', 'test'] as const;
export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace'] as const;

/** What every service reads from the environment. Each service extends it with its own variables. */
export class ServiceConfig {
  @IsIn(NODE_ENVS) NODE_ENV: (typeof NODE_ENVS)[number] = 'development';
  @Type(() => Number) @IsInt() @Min(0) @Max(65535) PORT = 3000;
  @IsString() HOST = '127.0.0.1';
  @Matches(/^postgres(ql)?:\/\/\S+$/, { message: 'DATABASE_URL must be a postgres:// URL' })
  DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/test';
  @Matches(/^amqps?:\/\/\S+$/, { message: 'RABBITMQ_URL must be an amqp:// or amqps:// URL' })
  RABBITMQ_URL = 'amqp://guest:guest@127.0.0.1:5672';
  @IsIn(LOG_LEVELS) LOG_LEVEL: (typeof LOG_LEVELS)[number] = 'info';
  /** Run pending migrations at start (on by default; off when a deploy step runs `npm run migrate`). */
  @IsOptional() @IsIn(['true', 'false']) MIGRATIONS_RUN: 'true' | 'false' = 'true';
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/**
 * Reads and validates a service's configuration once, at boot. A missing or bad variable throws a
 * ConfigError whose message names the variable and what it must be (never its value: it may be a secret).
 */
export function loadConfig<T extends ServiceConfig>(
  ConfigClass: new () => T,
  env: NodeJS.ProcessEnv = process.env,
): T {
  const defaults = new ConfigClass();
  const given = Object.fromEntries(
    Object.keys(defaults)
      .filter((key) => env[key] !== undefined && env[key] !== '')
      .map((key) => [key, env[key]]),
  );
  const config = plainToInstance(ConfigClass, { ...defaults, ...given }, { enableImplicitConversion: true });
  const problems = validateSync(config, { forbidUnknownValues: true }).flatMap(describe);
  if (problems.length > 0) throw new ConfigError(problems);
  return config;
}

function describe(error: ValidationError): string[] {
  return Object.values(error.constraints ?? {}).map((text) =>
    text.startsWith(error.property) ? text : `${error.property}: ${text}`,
  );
}
