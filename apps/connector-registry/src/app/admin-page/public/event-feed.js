// @ts-check
// How the connector hears of its ATS's changes: "On events · last batch read 12 s ago", or "Polling — why".
import { useEffect, useState } from 'preact/hooks';
import { api } from './api.js';
import { connectorPath, view } from './ui.js';

/** @typedef {import('./admin-api').ConnectorResponse} Connector */
/** @typedef {import('./admin-api').EventFeedResponse} EventFeed */

const REFRESH_MS = 15_000;

/**
 * How long ago a time was, in words a glance reads ("12 s ago", "3 min ago").
 * @param {string} iso
 * @param {number} now
 */
export function ago(iso, now) {
  const seconds = Math.max(0, Math.round((now - Date.parse(iso)) / 1000));
  if (seconds < 60) return `${seconds} s ago`;
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `${minutes} min ago`;
  const hours = Math.round(minutes / 60);
  return hours < 48 ? `${hours} h ago` : `${Math.round(hours / 24)} days ago`;
}

/**
 * Nothing when the connector has no event feed ('off') or vacancy-sync does not say (its absence is no
 * news an admin can act on; the runs still show how the connector syncs).
 * @param {{ connector: Connector }} props
 */
export function EventFeedLine({ connector }) {
  const [feed, setFeed] = useState(/** @type {EventFeed | null} */ (null));
  const [now, setNow] = useState(Date.now());
  useEffect(() => {
    let live = true;
    const load = () =>
      api('GET', connectorPath(connector.id, '/event-feed'))
        .then((body) => live && (setFeed(/** @type {EventFeed} */ (body)), setNow(Date.now())))
        .catch(() => live && setFeed(null));
    void load();
    const timer = setInterval(() => void load(), REFRESH_MS);
    return () => {
      live = false;
      clearInterval(timer);
    };
  }, [connector.id, connector.status]);

  if (!feed || feed.mode === 'off') return null;
  if (feed.mode === 'events') {
    return view`<p class="event-feed" data-event-feed="events">On events${feed.lastReadAt ? ` · last batch read ${ago(feed.lastReadAt, now)}` : ' · no batch read yet'}</p>`;
  }
  return view`<p class="event-feed warning" data-event-feed="polling">Polling — ${feed.reason || 'the ATS’s events are not available'}</p>`;
}
