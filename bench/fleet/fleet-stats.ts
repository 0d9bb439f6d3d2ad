/** What the fleet bench computes from the runs vacancy-sync recorded: pure functions over plain rows. */

export interface RunStart {
  connectorId: string;
  /** Epoch ms the run started executing (`sync_run.started_at`). */
  startedAt: number;
  status: string;
  /** Nothing published: no vacancy new, changed or closed (what most scheduled runs of a fleet are). */
  unchanged: boolean;
}

export interface ConnectedAt {
  connectorId: string;
  /** Epoch ms the connector was connected (the admin API's answer). */
  at: number;
}

export interface Distribution {
  count: number;
  p50: number;
  p95: number;
  max: number;
}

export interface ScheduleStats {
  due: number;
  done: number;
  succeeded: number;
  failed: number;
  /** Runs started in the window that published nothing. */
  unchanged: number;
  /** Connectors with no run started in the window. */
  idle: number;
  /** Seconds between a connector's consecutive run starts, the later one in the window. */
  interval: Distribution;
  /**
   * The longest a connector waited, seconds: the longest gap in the window, or the time from its last start
   * (or from being connected, when it never ran) to the window's end when that is longer.
   */
  longestWait: number;
  /** Seconds from connected to the first run's start. */
  firstSync: Distribution;
  /** Connectors whose first run had not started by the window's end. */
  neverSynced: number;
}

export function distribution(values: number[]): Distribution {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? NaN;
  return { count: sorted.length, p50: at(0.5), p95: at(0.95), max: sorted[sorted.length - 1] ?? NaN };
}

/**
 * Due: each connector once per interval of the window [from, to). Done: runs that started in it. Intervals:
 * the gaps between a connector's consecutive starts that end in the window. A connector that does not run
 * again has no such gap: `idle` counts it and `longestWait` shows its wait, still open at the window's end.
 */
export function scheduleStats(
  connectors: ConnectedAt[],
  runs: RunStart[],
  window: { from: number; to: number },
  intervalMs: number,
): ScheduleStats {
  const starts = new Map<string, number[]>(connectors.map((c) => [c.connectorId, []]));
  for (const run of runs) starts.get(run.connectorId)?.push(run.startedAt);
  const inWindow = (t: number) => t >= window.from && t < window.to;
  const done = runs.filter((r) => starts.has(r.connectorId) && inWindow(r.startedAt));
  const gaps: number[] = [];
  let longestWait = 0;
  const firstSync: number[] = [];
  let idle = 0;
  let neverSynced = 0;
  for (const connector of connectors) {
    const times = (starts.get(connector.connectorId) ?? []).sort((a, b) => a - b);
    if (!times.some(inWindow)) idle++;
    if (times.length === 0) neverSynced++;
    else firstSync.push((times[0] - connector.at) / 1000);
    for (let i = 1; i < times.length; i++) {
      if (inWindow(times[i])) gaps.push((times[i] - times[i - 1]) / 1000);
    }
    const last = times[times.length - 1] ?? connector.at;
    longestWait = Math.max(longestWait, (window.to - last) / 1000);
  }
  return {
    due: connectors.length * Math.floor((window.to - window.from) / intervalMs),
    done: done.length,
    succeeded: done.filter((r) => r.status === 'succeeded').length,
    failed: done.filter((r) => r.status === 'failed').length,
    unchanged: done.filter((r) => r.unchanged).length,
    idle,
    interval: distribution(gaps),
    longestWait: Math.max(longestWait, ...gaps),
    firstSync: distribution(firstSync),
    neverSynced,
  };
}
