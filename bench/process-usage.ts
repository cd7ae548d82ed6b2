import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';

let clockTicksPerSecond: number | undefined;

/** The kernel's clock ticks per second (USER_HZ), the unit of /proc's CPU times. */
export function ticksPerSecond(): number {
  if (clockTicksPerSecond === undefined) {
    const reported = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim());
    clockTicksPerSecond = Number.isFinite(reported) && reported > 0 ? reported : 100;
  }
  return clockTicksPerSecond;
}

/** The fields of /proc/<pid>/stat after the command name, which may hold spaces (field 3 is at index 0). */
function statFields(pid: number): string[] {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
}

/** Peak resident set size (VmHWM) of a live process since its start or the last resetPeakRss. */
export function readPeakRssBytes(pid: number): number {
  const hwm = /^VmHWM:\s+(\d+) kB$/m.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
  return hwm ? Number(hwm[1]) * 1024 : Number.NaN;
}

/** User + system CPU time of a live process's threads, not of its reaped children. */
export function readProcessCpuSeconds(pid: number): number {
  const fields = statFields(pid);
  return (Number(fields[11]) + Number(fields[12])) / ticksPerSecond();
}

/** Every process alive now, by pid. */
export function livePids(): number[] {
  return fs
    .readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .map(Number);
}

/**
 * A server that forks a process per connection (PostgreSQL): the CPU time of the process, of its
 * live descendants and of those it has reaped (cutime/cstime), so backends that come and go still count.
 */
export function readProcessTreeCpuSeconds(pid: number): number {
  let ticks = 0;
  for (const member of processTree(pid)) {
    try {
      const fields = statFields(member);
      ticks += Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14]);
    } catch {
      // Exited since the listing: its CPU time is in its parent's cutime/cstime by now.
    }
  }
  return ticks / ticksPerSecond();
}

/**
 * The memory a process tree holds now: the sum of its processes' PSS, which splits each shared
 * page among the processes that map it; their RSS would count PostgreSQL's shared buffers once per backend.
 */
export function readProcessTreePssBytes(pid: number): number {
  let kib = 0;
  for (const member of processTree(pid)) {
    try {
      const pss = /^Pss:\s+(\d+) kB$/m.exec(fs.readFileSync(`/proc/${member}/smaps_rollup`, 'utf8'));
      kib += pss ? Number(pss[1]) : 0;
    } catch {
      // Exited since the listing.
    }
  }
  return kib * 1024;
}

/** `pid` and every live descendant of it. */
export function processTree(pid: number): number[] {
  return processTrees([pid]);
}

/** Each of `pids` and every live descendant of them, from one listing of the live processes. */
export function processTrees(pids: readonly number[]): number[] {
  const children = new Map<number, number[]>();
  for (const live of livePids()) {
    try {
      const parent = Number(statFields(live)[1]);
      const siblings = children.get(parent);
      if (siblings) siblings.push(live);
      else children.set(parent, [live]);
    } catch {
      // Gone between readdir and read.
    }
  }
  const tree: number[] = [];
  const pending = [...pids];
  while (pending.length > 0) {
    const next = pending.pop() as number;
    tree.push(next);
    pending.push(...(children.get(next) ?? []));
  }
  return tree;
}

/** Restarts VmHWM from the current RSS, so the next reading is the peak of what follows. */
export function resetPeakRss(pid: number): void {
  fs.writeFileSync(`/proc/${pid}/clear_refs`, '5');
}

export function canReadProcesses(): boolean {
  return process.platform === 'linux' && fs.existsSync(`/proc/${process.pid}/stat`);
}
