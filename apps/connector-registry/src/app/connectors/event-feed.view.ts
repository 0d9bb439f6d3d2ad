import type { VacancyEventFeedStatus } from '@connector/contracts';

export const EVENT_FEED_MODES = ['events', 'polling', 'off'] as const;
export type EventFeedMode = (typeof EVENT_FEED_MODES)[number];

/** How a connector hears of its ATS's changes, as the admin API shows it (vacancy-sync's answer, checked). */
export interface EventFeedView {
  connectorId: string;
  mode: EventFeedMode;
  pollSeconds?: number;
  lastReadAt?: string;
  lastEventAt?: string;
  since?: string;
  reason?: string;
}

/**
 * vacancy-sync's reply, kept to the fields the API documents; undefined when it is not one (another version
 * answering): the admin sees a dependency problem, not a half-read status.
 */
export function toEventFeedView(connectorId: string, reply: unknown): EventFeedView | undefined {
  if (typeof reply !== 'object' || reply === null) return undefined;
  const status = reply as Partial<Record<keyof VacancyEventFeedStatus, unknown>>;
  if (!EVENT_FEED_MODES.includes(status.mode as EventFeedMode)) return undefined;
  const view: EventFeedView = { connectorId, mode: status.mode as EventFeedMode };
  if (typeof status.pollSeconds === 'number' && Number.isFinite(status.pollSeconds)) {
    view.pollSeconds = status.pollSeconds;
  }
  for (const key of ['lastReadAt', 'lastEventAt', 'since'] as const) {
    const value = status[key];
    if (typeof value === 'string' && !Number.isNaN(Date.parse(value))) view[key] = value;
  }
  if (typeof status.reason === 'string' && status.reason !== '') view.reason = status.reason;
  return view;
}
