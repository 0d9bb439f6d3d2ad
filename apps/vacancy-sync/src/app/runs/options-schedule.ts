import { eventPollSecondsOf, type FeedMode, runIntervalMinutes } from '../events/event-feed';
import { firstSlotAfter } from './run-schedule';
import { syncOptionsOf } from './sync-options';

/** What a connector's options say of its schedule, and where a changed period takes effect. */
export interface OptionsSchedule {
  /** Seconds between its scheduled runs (lengthened while its event feed is healthy). */
  intervalSeconds: number;
  /** Its next run when the interval changed (the schedule keeps an earlier one). */
  nextRunAt: Date;
  /** Seconds between two reads of its event feed. */
  pollSeconds: number;
  /** Its next read when the poll period changed (the feed keeps an earlier one). */
  nextReadAt: Date;
}

/**
 * Every option a schedule is kept by (`syncIntervalMinutes`, `eventPollSeconds`; `fullSyncEveryHours` is read
 * by each run), applied as soon as it changes: a changed period takes effect at the connector's first slot of
 * the new period, at most one new period from `now`.
 */
export function scheduleForOptions(input: {
  connectorId: string;
  options: Record<string, unknown>;
  feedMode: FeedMode | undefined;
  minPollSeconds: number;
  now: Date;
}): OptionsSchedule {
  const { connectorId, now } = input;
  const minutes = runIntervalMinutes(syncOptionsOf(input.options).syncIntervalMinutes, input.feedMode);
  const intervalSeconds = Math.round(minutes * 60);
  const pollSeconds = eventPollSecondsOf(input.options, input.minPollSeconds);
  return {
    intervalSeconds,
    nextRunAt: firstSlotAfter({ connectorId, periodSeconds: intervalSeconds, now }),
    pollSeconds,
    nextReadAt: firstSlotAfter({ connectorId, periodSeconds: pollSeconds, now }),
  };
}
