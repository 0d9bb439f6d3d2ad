import { plainToInstance, Type } from 'class-transformer';
import { IsInt, Max, Min, validateSync } from 'class-validator';

/**
 * The vendor's usage limits, as settings: its pages disagree (the event-subscriptions guide says 15
 * subscriptions per customer and 7 days of unread events, the usage-limits page 50 and 30 days), so each is a
 * variable whose default is the least convenient documented value (docs/ats-b.md, "Limits").
 */
export class AtsBLimitsConfig {
  /** Requests a minute per customer (usage-limits page: 1 500); the connector's budget is sized by it. */
  @Type(() => Number) @IsInt() @Min(60) @Max(1_000_000) ATS_B_REQUESTS_PER_MINUTE = 1_500;
  /** Event subscriptions per customer database (event guide: 15; usage-limits page: 50). */
  @Type(() => Number) @IsInt() @Min(1) @Max(10_000) ATS_B_MAX_EVENT_SUBSCRIPTIONS = 15;
  /** Days the ATS keeps events nobody read (event guide: 7; another page: 30). */
  @Type(() => Number) @IsInt() @Min(1) @Max(365) ATS_B_EVENT_RETENTION_DAYS = 7;
}

/** The limits as the client and the event source use them. */
export interface AtsBLimits {
  requestsPerMinute: number;
  maxEventSubscriptions: number;
  eventRetentionMs: number;
}

const DAY_MS = 86_400_000;

/** Reads the limits from `env`; a variable set and not valid throws, naming it (never a guess). */
export function atsBLimitsOf(env: Readonly<Record<string, string | undefined>>): AtsBLimits {
  const defaults = new AtsBLimitsConfig();
  const given = Object.fromEntries(
    Object.keys(defaults).flatMap((key) => (env[key] ? [[key, env[key]]] : [])),
  );
  const config = plainToInstance(AtsBLimitsConfig, { ...defaults, ...given });
  const [problem] = validateSync(config);
  if (problem) {
    const rule = Object.values(problem.constraints ?? {})[0] ?? 'is not valid';
    throw new Error(`${problem.property}: ${rule} (ATS-B limits, docs/ats-b.md)`);
  }
  return {
    requestsPerMinute: config.ATS_B_REQUESTS_PER_MINUTE,
    maxEventSubscriptions: config.ATS_B_MAX_EVENT_SUBSCRIPTIONS,
    eventRetentionMs: config.ATS_B_EVENT_RETENTION_DAYS * DAY_MS,
  };
}

let processLimits: AtsBLimits | undefined;

/** The limits of this process, read from its environment once (at boot: the adapter's parts read them). */
export function atsBLimits(): AtsBLimits {
  processLimits ??= atsBLimitsOf(process.env);
  return processLimits;
}
