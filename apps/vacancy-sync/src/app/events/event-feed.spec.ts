import { eventActions } from '@connector/ats-core';
import {
  afterReadFailure,
  eventPollSecondsOf,
  eventsUnavailableWarning,
  MAX_RESUBSCRIBE_BACKOFF_SECONDS,
  resubscribeBackoffSeconds,
  runIntervalMinutes,
  subscriptionIdOf,
  unreadTooLong,
} from './event-feed';
import { feedDown } from './event-feed.service';
import type { EventFeed } from './vacancy-event-feed.repository';

describe('event feed decisions', () => {
  describe(subscriptionIdOf.name, () => {
    it('is stable per connector and within the vendor name rules', () => {
      const id = '3f2b8c1e-9a7d-4e5f-8b6a-1c2d3e4f5a6b';
      expect(subscriptionIdOf(id)).toBe(subscriptionIdOf(id));
      expect(subscriptionIdOf(id)).toMatch(/^[A-Za-z0-9_-]{1,64}$/);
      expect(subscriptionIdOf(id)).not.toBe(subscriptionIdOf('3f2b8c1e-9a7d-4e5f-8b6a-1c2d3e4f5a6c'));
      expect(subscriptionIdOf('weird id/with ünicode and a very long tail '.repeat(4))).toMatch(
        /^[A-Za-z0-9_-]{1,64}$/,
      );
    });
  });

  describe(unreadTooLong.name, () => {
    const DAY = 86_400_000;
    const now = new Date(Date.UTC(2026, 10, 29));
    const ago = (ms: number) => new Date(now.getTime() - ms);

    it('is true only once the feed went unread for longer than the ATS keeps events', () => {
      expect(unreadTooLong({ lastReadAt: ago(6 * DAY), since: ago(20 * DAY) }, 7 * DAY, now)).toBe(false);
      expect(unreadTooLong({ lastReadAt: ago(8 * DAY), since: ago(20 * DAY) }, 7 * DAY, now)).toBe(true);
      // A longer retention setting (another vendor page says 30 days) keeps it.
      expect(unreadTooLong({ lastReadAt: ago(8 * DAY), since: ago(20 * DAY) }, 30 * DAY, now)).toBe(false);
    });

    it('counts a feed never read, or subscribed again since its last read, from when it was made', () => {
      expect(unreadTooLong({ since: ago(2 * DAY) }, 7 * DAY, now)).toBe(false);
      expect(unreadTooLong({ since: ago(8 * DAY) }, 7 * DAY, now)).toBe(true);
      expect(unreadTooLong({ lastReadAt: ago(20 * DAY), since: ago(DAY) }, 7 * DAY, now)).toBe(false);
    });
  });

  describe(eventPollSecondsOf.name, () => {
    it('defaults to 60, reads numbers and numeric text, and never goes below the floor', () => {
      expect(eventPollSecondsOf({})).toBe(60);
      expect(eventPollSecondsOf({ eventPollSeconds: 30 })).toBe(30);
      expect(eventPollSecondsOf({ eventPollSeconds: '15' })).toBe(15);
      expect(eventPollSecondsOf({ eventPollSeconds: 1 })).toBe(5);
      expect(eventPollSecondsOf({ eventPollSeconds: 1 }, 1)).toBe(1);
      expect(eventPollSecondsOf({ eventPollSeconds: 'soon' })).toBe(60);
      expect(eventPollSecondsOf({ eventPollSeconds: -3 })).toBe(60);
    });
  });

  describe(eventActions.name, () => {
    it('reads every changed job order once and closes the hard-deleted ones, whatever the order', () => {
      expect(
        eventActions([
          { entityId: 7, type: 'UPDATED' },
          { entityId: 3, type: 'INSERTED' },
          { entityId: 7, type: 'UPDATED' },
          { entityId: 9, type: 'UPDATED' },
          { entityId: 9, type: 'DELETED' },
          { entityId: 4, type: 'DELETED' },
        ]),
      ).toEqual({ reread: [3, 7], deleted: [4, 9] });
      expect(eventActions([])).toEqual({ reread: [], deleted: [] });
    });
  });

  describe('mode transitions', () => {
    it('falls back to polling only once reads keep failing', () => {
      expect(afterReadFailure(1)).toBe('retry');
      expect(afterReadFailure(2)).toBe('retry');
      expect(afterReadFailure(3)).toBe('polling');
    });

    it('makes a lost subscription again after a doubling wait, capped', () => {
      expect(resubscribeBackoffSeconds(1, 60)).toBe(60);
      expect(resubscribeBackoffSeconds(2, 60)).toBe(120);
      expect(resubscribeBackoffSeconds(3, 60)).toBe(240);
      expect(resubscribeBackoffSeconds(40, 60)).toBe(MAX_RESUBSCRIBE_BACKOFF_SECONDS);
    });

    it('lengthens the runs only while the feed is healthy', () => {
      expect(runIntervalMinutes(15, 'events')).toBe(60);
      expect(runIntervalMinutes(120, 'events')).toBe(120);
      expect(runIntervalMinutes(15, 'polling')).toBe(15);
      expect(runIntervalMinutes(15, undefined)).toBe(15);
    });

    it('warns in runs when the feed is lost or failing, not while a new one is being made', () => {
      const feed = (over: Partial<EventFeed>): EventFeed => ({
        connectorId: 'c1',
        accountId: 'a1',
        subscriptionId: 'vs-c1',
        mode: 'polling',
        nextReadAt: new Date(),
        pollSeconds: 60,
        since: new Date(),
        failures: 0,
        catchUp: false,
        ...over,
      });
      expect(feedDown(undefined)).toBe(false);
      expect(feedDown(feed({}))).toBe(false);
      expect(feedDown(feed({ catchUp: true }))).toBe(true);
      expect(feedDown(feed({ failures: 2 }))).toBe(true);
      expect(feedDown(feed({ mode: 'events', failures: 2 }))).toBe(false);
      expect(eventsUnavailableWarning('it expired.')).toMatchObject({
        code: 'EVENTS_UNAVAILABLE',
        message: expect.stringContaining('(it expired)'),
      });
    });
  });
});
