import { readdirSync, readFileSync } from 'node:fs';

/** A process's command name and user + system CPU so far, ms (Linux /proc; clock ticks of 10 ms). */
export function procStat(pid: number): { command: string; cpuMs: number } | undefined {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined;
  }
  // The command is in parentheses and may itself hold ') '; the fields follow the last one.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return {
    command: stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')),
    cpuMs: (Number(fields[11]) + Number(fields[12])) * 10,
  };
}

/** CPU so far, ms, of every process on the machine whose command name passes `match`. */
export function cpuMsOfCommand(match: (command: string) => boolean): number {
  let total = 0;
  for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    const stat = procStat(Number(pid));
    if (stat && match(stat.command)) total += stat.cpuMs;
  }
  return total;
}

/** Resident set size now (VmRSS) or at its peak (VmHWM), MiB; NaN once the process has ended. */
export function rssMiB(pid: number, which: 'VmRSS' | 'VmHWM' = 'VmRSS'): number {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    return Number(new RegExp(`${which}:\\s+(\\d+) kB`).exec(status)?.[1] ?? NaN) / 1024;
  } catch {
    return NaN;
  }
}
