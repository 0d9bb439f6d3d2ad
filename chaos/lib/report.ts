import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import type { ScenarioResult } from './scenario-runner';

const HEADER = [
  '| scenario | events | faults | lost | duplicated | failure log | recovery | notes | measured |',
  '| --- | --- | --- | --- | --- | --- | --- | --- | --- |',
];

function recovery(result: ScenarioResult): string {
  if (result.faults.length === 0) return '— (no fault)';
  const seconds = (ms: number | null) =>
    ms === null ? '**not within the time allowed**' : `${(ms / 1000).toFixed(1)} s`;
  return `settled ${seconds(result.recovery.settledMs)}, healthy ${seconds(result.recovery.healthyMs)}`;
}

export function tableRow(result: ScenarioResult, date = new Date()): string {
  const cells = [
    `\`${result.scenario}\``,
    String(result.events),
    result.faults.join('; ') || 'none',
    result.lost === 0 ? '0' : `**${result.lost}**`,
    result.duplicated === 0 ? '0' : `**${result.duplicated}**`,
    String(result.failureLog),
    recovery(result),
    [...result.violations.map((v) => `**${v}**`), ...result.notes].join('; ') || '',
    `${date.toISOString().slice(0, 10)}, seed ${result.seed}`,
  ];
  return `| ${cells.map((c) => c.replace(/\|/g, '\\|')).join(' | ')} |`;
}

/** The table of one run, as printed at its end. */
export function formatTable(results: readonly ScenarioResult[]): string {
  return [...HEADER, ...results.map((r) => tableRow(r))].join('\n');
}

/** What docs/reliability.md says of a scenario besides its figures. */
export interface ScenarioEntry {
  name: string;
  description: string;
  restartsSharedInfrastructure?: boolean;
}

/**
 * Updates `docs/reliability.md` between its markers: the list of scenarios from the code, and the table
 * with the rows of the scenarios that ran replaced and the others kept (a run of one scenario updates its
 * row only), in the suite's order; rows of scenarios the suite no longer has are dropped.
 */
export function writeDocs(
  path: string,
  results: readonly ScenarioResult[],
  scenarios: readonly ScenarioEntry[],
): void {
  if (!existsSync(path)) throw new Error(`${path} not found`);
  let text = readFileSync(path, 'utf8');
  const order = scenarios.map((s) => s.name);
  const rows = new Map<string, string>();
  for (const line of section(text, 'chaos-table').split('\n')) {
    // Cells padded or not: prettier pads them when it formats the page.
    const name = /^\|\s*`([^`]+)`\s*\|/.exec(line)?.[1];
    if (name && order.includes(name)) rows.set(name, line);
  }
  for (const result of results) rows.set(result.scenario, tableRow(result));
  const ordered = [...rows.entries()].sort(([a], [b]) => order.indexOf(a) - order.indexOf(b));
  text = replaceSection(text, 'chaos-table', [...HEADER, ...ordered.map(([, row]) => row)].join('\n'));
  text = replaceSection(
    text,
    'chaos-scenarios',
    scenarios
      .map(
        (s) =>
          `- \`${s.name}\`${s.restartsSharedInfrastructure ? ' (restarts shared infrastructure)' : ''}: ${s.description}`,
      )
      .join('\n'),
  );
  writeFileSync(path, text);
}

function bounds(text: string, name: string): { from: number; to: number } {
  const open = `<!-- ${name}:start -->`;
  const close = `<!-- ${name}:end -->`;
  const start = text.indexOf(open);
  const end = text.indexOf(close);
  if (start < 0 || end < start) throw new Error(`no ${open} … ${close} markers`);
  return { from: start + open.length, to: end };
}

function section(text: string, name: string): string {
  const { from, to } = bounds(text, name);
  return text.slice(from, to);
}

function replaceSection(text: string, name: string, content: string): string {
  const { from, to } = bounds(text, name);
  return `${text.slice(0, from)}\n${content}\n${text.slice(to)}`;
}
