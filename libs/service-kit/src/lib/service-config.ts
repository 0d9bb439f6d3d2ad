import { readFileSync } from 'node:fs';
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

const requiredInProduction = new WeakMap<object, Set<string>>();

/**
 * Marks a variable whose default is for local mode only (a loopback address, a demo secret): with
 * NODE_ENV=production it must be given, and the service refuses to start without it.
 */
export function RequiredInProduction(): PropertyDecorator {
  return (target, property) => {
    const names = requiredInProduction.get(target) ?? new Set<string>();
    names.add(String(property));
    requiredInProduction.set(target, names);
  };
}

/** The variables of a config class (its own and inherited) that production requires. */
export function requiredInProductionOf(ConfigClass: new () => ServiceConfig): string[] {
  const names = new Set<string>();
  for (let proto: object | null = ConfigClass.prototype; proto; proto = Object.getPrototypeOf(proto)) {
    for (const name of requiredInProduction.get(proto) ?? []) names.add(name);
  }
  return [...names].sort();
}

/** What every service reads from the environment. Each service extends it with its own variables. */
export class ServiceConfig {
  @IsIn(NODE_ENVS) NODE_ENV: (typeof NODE_ENVS)[number] = 'development';
  @Type(() => Number) @IsInt() @Min(0) @Max(65535) PORT = 3000;
  @IsString() HOST = '127.0.0.1';
  @RequiredInProduction()
  @Matches(/^postgres(ql)?:\/\/\S+$/, { message: 'DATABASE_URL must be a postgres:// URL' })
  DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/test';
  @RequiredInProduction()
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
 * `<NAME>_FILE` reads a variable from a file (Docker and Kubernetes secrets). With NODE_ENV=production,
 * every variable marked @RequiredInProduction must be given: no local default is ever used there.
 */
export function loadConfig<T extends ServiceConfig>(
  ConfigClass: new () => T,
  env: NodeJS.ProcessEnv = process.env,
): T {
  const defaults = new ConfigClass();
  const problems: string[] = [];
  const given: Record<string, string> = {};
  for (const key of Object.keys(defaults)) {
    const value = env[key];
    const file = env[`${key}_FILE`];
    if (value !== undefined && value !== '') given[key] = value;
    else if (file) {
      try {
        given[key] = readFileSync(file, 'utf8').trim();
      } catch {
        problems.push(`${key}_FILE: cannot read ${file}`);
      }
    }
  }
  const production = (given['NODE_ENV'] ?? defaults.NODE_ENV) === 'production';
  const missing = production
    ? requiredInProductionOf(ConfigClass).filter((key) => given[key] === undefined || given[key] === '')
    : [];
  problems.push(
    ...missing.map((key) => `${key} is required when NODE_ENV=production (no local default there)`),
  );
  const config = plainToInstance(ConfigClass, { ...defaults, ...given }, { enableImplicitConversion: true });
  problems.push(
    ...validateSync(config, { forbidUnknownValues: true })
      .filter((error) => !missing.includes(error.property))
      .flatMap(describe),
  );
  if (problems.length > 0) throw new ConfigError(problems);
  return config;
}

function describe(error: ValidationError): string[] {
  return Object.values(error.constraints ?? {}).map((text) =>
    text.startsWith(error.property) ? text : `${error.property}: ${text}`,
  );
}
