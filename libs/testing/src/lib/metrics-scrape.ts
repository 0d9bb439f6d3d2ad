/** One sample of a Prometheus text exposition: `name{labels} value`. */
export interface MetricSample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

const SAMPLE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})?\s+(\S+)/;
const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g;

/** The samples of a `/metrics` answer (comments and type lines left out). */
export function parseMetrics(text: string): MetricSample[] {
  return text.split('\n').flatMap((line) => {
    const match = line.startsWith('#') ? null : SAMPLE.exec(line);
    if (!match) return [];
    const labels: Record<string, string> = {};
    for (const [, key, raw] of (match[2] ?? '').matchAll(LABEL)) {
      labels[key as string] = (raw as string).replace(/\\n/g, '\n').replace(/\\(.)/g, '$1');
    }
    return [{ name: match[1] as string, labels, value: Number(match[3]) }];
  });
}

/** A service's metrics as Prometheus would scrape them. */
export async function scrapeMetrics(baseUrl: string): Promise<MetricSample[]> {
  const response = await fetch(`${baseUrl}/metrics`);
  if (!response.ok) throw new Error(`${baseUrl}/metrics answered ${response.status}`);
  return parseMetrics(await response.text());
}

/** The sum of the samples named `name` whose labels include `labels` (0 when there is none). */
export function metricValue(
  samples: MetricSample[],
  name: string,
  labels: Record<string, string> = {},
): number {
  return samples
    .filter((s) => s.name === name && Object.entries(labels).every(([key, value]) => s.labels[key] === value))
    .reduce((sum, s) => sum + s.value, 0);
}
