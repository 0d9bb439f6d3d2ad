import { readFileSync } from 'node:fs';
import { plainToInstance, Transform, Type } from 'class-transformer';
import {
  IsBoolean,
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  Matches,
  Max,
  Min,
  Validate,
  type ValidationArguments,
  ValidatorConstraint,
  type ValidatorConstraintInterface,
  validateSync,
  type ValidationError,
} from 'class-validator';
import {
  type BrokerService,
  BrokerUsers,
  BrokerUsersFormatError,
  brokerUserOf,
  isLoopbackBroker,
  parseBrokerUsers,
} from '@connector/messaging';

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

/** Production talks to a remote broker over TLS, unless a private network is explicitly allowed (compose). */
@ValidatorConstraint({ name: 'amqpsInProduction' })
class AmqpsInProductionConstraint implements ValidatorConstraintInterface {
  validate(value: unknown, args: ValidationArguments): boolean {
    const config = args.object as ServiceConfig;
    if (config.NODE_ENV !== 'production' || config.RABBITMQ_ALLOW_PLAIN_AMQP === true) return true;
    if (typeof value !== 'string' || value.startsWith('amqps://')) return true;
    try {
      return isLoopbackBroker(value);
    } catch {
      return true; // not a URL: the format check says so
    }
  }
  defaultMessage(): string {
    return (
      'RABBITMQ_URL must be amqps:// when NODE_ENV=production (plain amqp:// only to a loopback broker, ' +
      'or with RABBITMQ_ALLOW_PLAIN_AMQP=true on a private network)'
    );
  }
}

@ValidatorConstraint({ name: 'brokerUsers' })
class BrokerUsersConstraint implements ValidatorConstraintInterface {
  private problem = '';
  validate(value: unknown, args: ValidationArguments): boolean {
    try {
      const users = parseBrokerUsers(typeof value === 'string' ? value : '');
      const production = (args.object as ServiceConfig).NODE_ENV === 'production';
      if (users && production && new Set(Object.values(users)).size < Object.keys(users).length) {
        this.problem = 'production needs a broker user per service';
        return false;
      }
      return true;
    } catch (error) {
      this.problem = error instanceof BrokerUsersFormatError ? error.message : 'is invalid';
      return false;
    }
  }
  defaultMessage(): string {
    return `RABBITMQ_USERS must be "<service>:<user>[,…]" naming every service: ${this.problem}`;
  }
}

/** What every service reads from the environment. Each service extends it with its own variables. */
export class ServiceConfig {
  @IsIn(NODE_ENVS) NODE_ENV: (typeof NODE_ENVS)[number] = 'production';
  @Type(() => Number) @IsInt() @Min(0) @Max(65535) PORT = 3000;
  /**
   * `/metrics` on a port of its own (one the ingress does not expose), and not on PORT; empty: on PORT, as
   * locally and in docker compose.
   */
  @Matches(/^(\d{1,5})?$/, { message: 'METRICS_PORT must be a port number, or empty' }) METRICS_PORT = '';
  @IsString() HOST = '127.0.0.1';
  @RequiredInProduction()
  @Matches(/^postgres(ql)?:\/\/\S+$/, { message: 'DATABASE_URL must be a postgres:// URL' })
  DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/test';
  @RequiredInProduction()
  @Matches(/^amqps?:\/\/\S+$/, { message: 'RABBITMQ_URL must be an amqp:// or amqps:// URL' })
  @Validate(AmqpsInProductionConstraint)
  RABBITMQ_URL = 'amqp://guest:guest@127.0.0.1:5672';
  /** Plain amqp:// to a broker on another host in production: only on a private network (docker compose). */
  @Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? value === 'true' : value))
  @IsBoolean()
  RABBITMQ_ALLOW_PLAIN_AMQP = false;
  /**
   * The broker user of each service, `<service>:<user>[,…]`: a consumer accepts a security-relevant message
   * only from the user of a service that may publish it. Empty (local mode): every service is RABBITMQ_URL's user.
   */
  @RequiredInProduction() @IsString() @Validate(BrokerUsersConstraint) RABBITMQ_USERS = '';
  @IsIn(LOG_LEVELS) LOG_LEVEL: (typeof LOG_LEVELS)[number] = 'info';
  /** A message handler still running after this long fails: retried, then dead-lettered. */
  @Type(() => Number) @IsInt() @Min(1_000) @Max(3_600_000) HANDLER_TIMEOUT_MS = 300_000;
  /** Unsettled deliveries of a message (its handler crashes the process) after which it is dead-lettered. */
  @Type(() => Number) @IsInt() @Min(1) @Max(1_000) DELIVERY_LIMIT = 10;
  /** How long a deleted connector's data stays (runs, links, mappings), then it goes. */
  @Type(() => Number) @IsInt() @Min(1) @Max(3_650) DELETED_CONNECTOR_RETENTION_DAYS = 30;
  /** How often the retention job deletes what is past its limit. */
  @Type(() => Number) @IsInt() @Min(1_000) @Max(86_400_000) RETENTION_INTERVAL_MS = 3_600_000;
  /** Run pending migrations at start (on by default; off when a deploy step runs `npm run migrate`). */
  @IsOptional() @IsIn(['true', 'false']) MIGRATIONS_RUN: 'true' | 'false' = 'true';
}

/**
 * The broker users this service goes by: RABBITMQ_USERS, or (empty, local mode) the user of RABBITMQ_URL
 * for every service.
 */
export function brokerUsersOf(config: ServiceConfig): BrokerUsers {
  return BrokerUsers.parse(config.RABBITMQ_USERS, brokerUserOf(config.RABBITMQ_URL));
}

/**
 * A service must connect as the user RABBITMQ_USERS names for it: its own retry copies carry that user,
 * and every other service checks its messages against it.
 */
export function brokerUserProblem(service: BrokerService, config: ServiceConfig): string | undefined {
  const connectsAs = brokerUserOf(config.RABBITMQ_URL);
  const named = brokerUsersOf(config).of(service);
  return connectsAs === named
    ? undefined
    : `RABBITMQ_URL connects as broker user "${connectsAs}", but RABBITMQ_USERS names "${named}" for ${service}`;
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
 * `<NAME>_FILE` reads a variable from a file (Docker and Kubernetes secrets). With NODE_ENV=production (the
 * default: local mode is `development` or `test`, said explicitly by `npm start` and the tests), every
 * variable marked @RequiredInProduction must be given: no local default is ever used there.
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
  // Production unless local mode is asked for: a deployment that forgets NODE_ENV gets production's rules.
  const unset = given['NODE_ENV'] === undefined ? ', the default; NODE_ENV=development for local mode' : '';
  problems.push(
    ...missing.map((key) => `${key} is required when NODE_ENV=production (no local default there${unset})`),
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
