import * as fs from 'node:fs';
import { livePids, processTrees, readProcessCpuSeconds, ticksPerSecond } from './process-usage';

/** The machine's CPU time, every core together, from the `cpu` line of /proc/stat. */
export interface MachineCpuTime {
  /** user, nice, system, irq and softirq: not idle, iowait, or steal (the hypervisor running other machines). */
  busySeconds: number;
  /** irq and softirq: the kernel's interrupt work, loopback networking among it. */
  interruptSeconds: number;
}

/** What a path cost the whole machine, and which processes outside the measured ones took a share. */
export interface MachineCost {
  busySeconds: number;
  interruptSeconds: number;
  /** Busy time no measured process accounts for: other processes, kernel threads, interrupts. */
  unattributedSeconds: number;
  /** The processes outside the measured ones that took the most CPU, by command name, most first. */
  busiestOthers: { command: string; cpuSeconds: number }[];
}

const BUSIEST_SHOWN = 4;

/** The `cpu` line of /proc/stat, whose fields are in clock ticks (USER_HZ). */
export function parseMachineCpuTime(procStat: string, ticksEachSecond: number): MachineCpuTime {
  const line = procStat.split('\n').find((candidate) => candidate.startsWith('cpu '));
  if (!line) throw new Error('/proc/stat has no aggregate cpu line');
  const [user, nice, system, , , irq, softirq] = line.trim().split(/\s+/).slice(1).map(Number);
  return { busySeconds: (user + nice + system + irq + softirq) / ticksEachSecond, interruptSeconds: (irq + softirq) / ticksEachSecond };
}

/** Its command name; for an interpreter (node, python3), with the script it runs, which says more. */
function commandOf(pid: number): string {
  const command = fs.readFileSync(`/proc/${pid}/comm`, 'utf8').trim();
  if (!/^(node|python\d*(\.\d+)?)$/.test(command)) return command;
  const script = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0')[1];
  return script && !script.startsWith('-') ? `${command} ${script.split('/').slice(-2).join('/')}` : command;
}

/** Each live process's own CPU time (not its reaped children's), by pid. */
function everyProcessCpu(): Map<number, number> {
  const processes = new Map<number, number>();
  for (const pid of livePids()) {
    try {
      processes.set(pid, readProcessCpuSeconds(pid));
    } catch {
      // Gone between readdir and read.
    }
  }
  return processes;
}

/**
 * The machine's busy time over a run beside the measured processes' own: on a machine whose cores
 * are all busy, CPU the measured processes do not account for still slows the path down.
 */
export class MachineMeter {
  private busyBefore?: MachineCpuTime;
  private processesBefore = new Map<number, number>();

  /** `namedPids`: processes outside the measured ones known by a better name than their command (the stack's other roles). */
  constructor(
    private readonly measuredPids: number[],
    private readonly namedPids: ReadonlyMap<number, string> = new Map(),
  ) {}

  start(): void {
    this.processesBefore = everyProcessCpu();
    this.busyBefore = this.readMachine();
  }

  /** `measuredCpuSeconds`: what the measured processes spent over the same run. */
  stop(measuredCpuSeconds: number): MachineCost {
    const busy = this.readMachine();
    const before = this.busyBefore ?? busy;
    const measured = new Set(processTrees(this.measuredPids));
    const byCommand = new Map<string, number>();
    for (const [pid, cpuSeconds] of everyProcessCpu()) {
      const spent = cpuSeconds - (this.processesBefore.get(pid) ?? 0);
      if (measured.has(pid) || spent <= 0) continue;
      try {
        const name = this.namedPids.get(pid) ?? commandOf(pid);
        byCommand.set(name, (byCommand.get(name) ?? 0) + spent);
      } catch {
        // Exited since its CPU time was read.
      }
    }
    const busySeconds = busy.busySeconds - before.busySeconds;
    return {
      busySeconds,
      interruptSeconds: busy.interruptSeconds - before.interruptSeconds,
      unattributedSeconds: busySeconds - measuredCpuSeconds,
      busiestOthers: [...byCommand]
        .map(([command, cpuSeconds]) => ({ command, cpuSeconds }))
        .sort((a, b) => b.cpuSeconds - a.cpuSeconds)
        .slice(0, BUSIEST_SHOWN),
    };
  }

  private readMachine(): MachineCpuTime {
    return parseMachineCpuTime(fs.readFileSync('/proc/stat', 'utf8'), ticksPerSecond());
  }
}
