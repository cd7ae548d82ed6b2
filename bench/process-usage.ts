import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';

export interface ProcessUsage {
  /** User + system CPU time of every thread of the process so far. */
  cpuSeconds: number;
  /** Peak resident set size (VmHWM) since start or the last resetPeakRss. */
  peakRssBytes: number;
}

let clockTicksPerSecond: number | undefined;

function ticksPerSecond(): number {
  if (clockTicksPerSecond === undefined) {
    const reported = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim());
    clockTicksPerSecond = Number.isFinite(reported) && reported > 0 ? reported : 100;
  }
  return clockTicksPerSecond;
}

/** CPU time and peak RSS of a live process, from /proc (Linux only). */
export function readProcessUsage(pid: number): ProcessUsage {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  // The command name (field 2) may hold spaces; the fields after its closing parenthesis do not.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const userTicks = Number(fields[11]);
  const systemTicks = Number(fields[12]);
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const hwm = /^VmHWM:\s+(\d+) kB$/m.exec(status);
  return {
    cpuSeconds: (userTicks + systemTicks) / ticksPerSecond(),
    peakRssBytes: hwm ? Number(hwm[1]) * 1024 : Number.NaN,
  };
}

/** Restarts VmHWM from the current RSS, so the next reading is the peak of what follows. */
export function resetPeakRss(pid: number): void {
  fs.writeFileSync(`/proc/${pid}/clear_refs`, '5');
}

export function canReadProcesses(): boolean {
  return process.platform === 'linux' && fs.existsSync(`/proc/${process.pid}/stat`);
}
