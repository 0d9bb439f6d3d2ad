// @ts-check
// A connector's work per day over the last 14 days, drawn as small bar charts sharing one day axis: ATS calls
// of its vacancy runs, vacancies published, records written to the ATS; days with failures are marked red.
// Colours are SVG attributes, not style attributes: the page's Content-Security-Policy allows no inline style.
import { useEffect, useState } from 'preact/hooks';
import { api } from './api.js';
import { connectorPath, Problem, view } from './ui.js';

/** @typedef {import('./api.js').ApiError} ApiError */
/** @typedef {import('./admin-api').ActivityDayResponse} ActivityDay */

/**
 * @typedef {object} Series
 * @property {'apiCalls' | 'vacanciesPublished' | 'recordsWritten'} key
 * @property {string} label
 * @property {string} unit what one of it is called in a tooltip
 * @property {string} colour
 */

/** @type {Series[]} */
const SERIES = [
  { key: 'apiCalls', label: 'ATS calls (vacancy runs)', unit: 'ATS calls', colour: '#0b57d0' },
  { key: 'vacanciesPublished', label: 'Vacancies published', unit: 'vacancies published', colour: '#116329' },
  { key: 'recordsWritten', label: 'Records written to the ATS', unit: 'records written', colour: '#6f42c1' },
];
const FAILURE_COLOUR = '#a40e26';

// The drawing's own coordinates; the SVG scales to the card's width.
const WIDTH = 720;
const LABEL_WIDTH = 200;
const ROW_HEIGHT = 56;
const ROW_GAP = 14;
const FAILURE_ROW = 26;
const AXIS_HEIGHT = 22;

/**
 * `2026-11-21` → `21 Nov`, read as UTC (the API's days are UTC days).
 * @param {string} day
 */
function dayLabel(day) {
  return new Date(`${day}T00:00:00Z`).toLocaleDateString(undefined, {
    day: 'numeric',
    month: 'short',
    timeZone: 'UTC',
  });
}

/**
 * Bars of one series in its own row, scaled to its own largest day (each row reads on its own).
 * @param {{ series: Series, days: ActivityDay[], top: number, column: number }} props
 */
function SeriesRow({ series, days, top, column }) {
  const max = Math.max(1, ...days.map((d) => d[series.key]));
  const barWidth = column * 0.62;
  const total = days.reduce((sum, d) => sum + d[series.key], 0);
  return view`<g class="activity-series" data-series=${series.key}>
    <text x="0" y=${top + ROW_HEIGHT / 2} dominant-baseline="middle" font-size="13" fill="#1b1f24">${series.label}</text>
    <text x="0" y=${top + ROW_HEIGHT / 2 + 16} dominant-baseline="middle" font-size="11" fill="#57606a">${total} in 14 days</text>
    <line x1=${LABEL_WIDTH} x2=${WIDTH} y1=${top + ROW_HEIGHT} y2=${top + ROW_HEIGHT} stroke="#d0d7de" />
    ${days.map((d, i) => {
      const value = d[series.key];
      const height = value === 0 ? 0 : Math.max(2, (value / max) * (ROW_HEIGHT - 14));
      const x = LABEL_WIDTH + i * column + (column - barWidth) / 2;
      return view`<g key=${d.day}>
        <rect class="activity-bar" data-day=${d.day} data-value=${value} x=${x} y=${top + ROW_HEIGHT - height}
          width=${barWidth} height=${height} rx="2" fill=${series.colour}>
          <title>${dayLabel(d.day)}: ${value} ${series.unit}</title>
        </rect>
        ${value > 0 ? view`<text x=${x + barWidth / 2} y=${top + ROW_HEIGHT - height - 3} text-anchor="middle" font-size="10" fill="#57606a">${value}</text>` : null}
      </g>`;
    })}
  </g>`;
}

/**
 * The drawing: a band behind each failing day, the series rows, the failure markers and the day axis.
 * @param {{ days: ActivityDay[] }} props
 */
export function ActivityDrawing({ days }) {
  const column = (WIDTH - LABEL_WIDTH) / Math.max(1, days.length);
  const seriesHeight = SERIES.length * (ROW_HEIGHT + ROW_GAP);
  const failureTop = seriesHeight;
  const height = failureTop + FAILURE_ROW + AXIS_HEIGHT;
  const failing = days.filter((d) => d.failures > 0);
  const summary =
    SERIES.map((s) => `${days.reduce((sum, d) => sum + d[s.key], 0)} ${s.unit}`).join(', ') +
    (failing.length > 0
      ? `; failures on ${failing.length} day(s): ${failing.map((d) => `${dayLabel(d.day)} (${d.failures})`).join(', ')}`
      : '; no failures');
  return view`<svg class="activity-chart" viewBox=${`0 0 ${WIDTH} ${height}`} width="100%" role="img"
      aria-labelledby="activity-chart-title activity-chart-desc">
    <title id="activity-chart-title">Activity over the last ${days.length} days</title>
    <desc id="activity-chart-desc">${summary}</desc>
    ${failing.map((d) => {
      const i = days.indexOf(d);
      return view`<rect key=${`band-${d.day}`} x=${LABEL_WIDTH + i * column} y="0" width=${column} height=${failureTop + FAILURE_ROW}
        fill=${FAILURE_COLOUR} fill-opacity="0.08" />`;
    })}
    ${SERIES.map((series, index) => view`<${SeriesRow} key=${series.key} series=${series} days=${days} top=${index * (ROW_HEIGHT + ROW_GAP)} column=${column} />`)}
    <text x="0" y=${failureTop + FAILURE_ROW / 2} dominant-baseline="middle" font-size="13" fill=${FAILURE_COLOUR}>Failures</text>
    ${failing.map((d) => {
      const cx = LABEL_WIDTH + days.indexOf(d) * column + column / 2;
      const cy = failureTop + FAILURE_ROW / 2;
      return view`<g key=${`failure-${d.day}`} class="activity-failure" data-day=${d.day} data-value=${d.failures}>
        <path d=${`M ${cx} ${cy - 8} L ${cx + 8} ${cy + 6} L ${cx - 8} ${cy + 6} Z`} fill=${FAILURE_COLOUR}>
          <title>${dayLabel(d.day)}: ${d.failures} failure(s)</title>
        </path>
        <text x=${cx + 11} y=${cy + 1} dominant-baseline="middle" font-size="11" fill=${FAILURE_COLOUR}>${d.failures}</text>
      </g>`;
    })}
    ${days.map(
      (d, i) =>
        view`<text key=${`axis-${d.day}`} class="activity-day" x=${LABEL_WIDTH + i * column + column / 2} y=${height - 6}
          text-anchor="middle" font-size="10" fill="#57606a">${dayLabel(d.day)}</text>`,
    )}
  </svg>`;
}

/**
 * The Overview's activity card; `refreshKey` changes (e.g. when a run ends) to load the days again.
 * @param {{ connector: import('./admin-api').ConnectorResponse, refreshKey?: string | null }} props
 */
export function ActivityCard({ connector, refreshKey }) {
  const [days, setDays] = useState(/** @type {ActivityDay[] | null} */ (null));
  const [error, setError] = useState(/** @type {ApiError | null} */ (null));

  useEffect(() => {
    let current = true;
    /** @type {Promise<import('./admin-api').ActivityResponse>} */ (
      api('GET', connectorPath(connector.id, '/activity'))
    )
      .then((body) => {
        if (!current) return;
        setDays(body.days);
        setError(null);
      })
      .catch((/** @type {ApiError} */ failure) => current && setError(failure));
    return () => {
      current = false;
    };
  }, [connector.id, refreshKey]);

  return view`<section class="card activity" aria-labelledby="activity-title">
    <h2 id="activity-title">Activity, last 14 days</h2>
    ${error ? view`<${Problem} title="Could not load the activity" error=${error} />` : null}
    ${days ? view`<${ActivityDrawing} days=${days} />` : null}
    <p class="hint">Days are UTC. Calls count the vacancy runs; candidates, applications and documents are the records written. Failures are failed messages (listed below) and failed runs.</p>
  </section>`;
}
