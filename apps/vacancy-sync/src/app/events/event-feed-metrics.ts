import { counter, histogram } from '@connector/observability';
import type { FeedMode } from './event-feed';

const lag = histogram({
  name: 'connector_vacancy_event_lag_seconds',
  help: "Time from a change in the ATS (its event's timestamp) to the vacancy event published for it, by ATS",
  labelNames: ['ats'],
  buckets: [1, 2, 5, 10, 20, 30, 60, 90, 120, 300, 900, 3600],
});
const eventsRead = counter({
  name: 'connector_vacancy_events_read_total',
  help: 'Events read from ATS event subscriptions (a batch read again after a crash counts again), by ATS',
  labelNames: ['ats'],
});
const reads = counter({
  name: 'connector_vacancy_event_reads_total',
  help: 'Reads of ATS event subscriptions, by ATS and outcome (events, empty, failed, gone)',
  labelNames: ['ats', 'outcome'],
});
const modeChanges = counter({
  name: 'connector_vacancy_event_feed_mode_changes_total',
  help: 'Event feeds that changed mode, by ATS and the mode entered (events: subscribed; polling: lost or failing, runs carry on alone)',
  labelNames: ['ats', 'mode'],
});

export const eventFeedMetrics = {
  read(ats: string, outcome: 'events' | 'empty' | 'failed' | 'gone', events = 0): void {
    reads.inc({ ats, outcome });
    if (events > 0) eventsRead.inc({ ats }, events);
  },
  /** A vacancy event published for changes the ATS made at `changedAt`. */
  published(ats: string, changedAt: Date, now = Date.now()): void {
    lag.observe({ ats }, Math.max(0, now - changedAt.getTime()) / 1000);
  },
  mode(ats: string, mode: FeedMode): void {
    modeChanges.inc({ ats, mode });
  },
};
