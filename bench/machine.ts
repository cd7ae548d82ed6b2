import * as fs from 'node:fs';
import * as os from 'node:os';

/** What the figures were measured on, for the report's header. */
export function describeMachine(): string {
  const cpuModel = os.cpus()[0]?.model ?? 'unknown CPU';
  const memoryGiB = (os.totalmem() / 1024 ** 3).toFixed(1);
  return `${os.availableParallelism()} CPUs (${cpuModel}), ${memoryGiB} GiB RAM, ${kernel()}, Node ${process.version}, load average before the run ${describeLoad()}`;
}

/** The 1, 5 and 15 minute load averages: other work on the machine skews every figure. */
export function describeLoad(): string {
  return os.loadavg().map((value) => value.toFixed(2)).join(' ');
}

function kernel(): string {
  try {
    return `Linux ${fs.readFileSync('/proc/sys/kernel/osrelease', 'utf8').trim()}`;
  } catch {
    return `${os.type()} ${os.release()}`;
  }
}
