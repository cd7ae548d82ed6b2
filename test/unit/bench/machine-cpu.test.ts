import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as readline from 'node:readline';
import { MachineMeter, parseMachineCpuTime } from '../../../bench/machine-cpu';

// A process that, told to on its stdin, burns 0.3 CPU-seconds (measured by itself), says so, and stays.
const BURN_CPU_MICROS = 300_000;
const BURNER = `process.stdin.once('data', () => { while (process.cpuUsage().user < ${BURN_CPU_MICROS}) {} console.log('burnt'); }); setInterval(() => {}, 1000);`;

let scriptDir: string;
let burnerCommand: string;
const started: ChildProcess[] = [];

beforeAll(() => {
  scriptDir = fs.mkdtempSync(path.join(os.tmpdir(), 'machine-cpu-'));
  fs.writeFileSync(path.join(scriptDir, 'burn-cpu.js'), BURNER);
  burnerCommand = `node ${path.basename(scriptDir)}/burn-cpu.js`;
});

afterEach(() => {
  for (const child of started.splice(0)) child.kill('SIGKILL');
});

afterAll(() => fs.rmSync(scriptDir, { recursive: true, force: true }));

/** A burner, started but idle: `burn()` resolves once it has burnt its share. */
function startBurner(): { pid: number; burn: () => Promise<void> } {
  const child = spawn(process.execPath, [path.join(scriptDir, 'burn-cpu.js')], { stdio: ['pipe', 'pipe', 'inherit'] });
  started.push(child);
  const lines = readline.createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  return {
    pid: child.pid as number,
    burn: async () => {
      child.stdin.write('go\n');
      await lines.next();
    },
  };
}

describe('the machine CPU meter', () => {
  it("reads /proc/stat's aggregate line: busy is all but idle, iowait and steal, interrupts irq and softirq", () => {
    const procStat = 'cpu  1000 50 300 9000 200 10 40 5 0 0\ncpu0 500 25 150 4500 100 5 20 2 0 0\nintr 12345\n';
    expect(parseMachineCpuTime(procStat, 100)).toEqual({ busySeconds: 14, interruptSeconds: 0.5 });
  });

  it('counts a process outside the measured ones as unattributed, named by the script it runs', async () => {
    const burner = startBurner();
    const meter = new MachineMeter([]);
    meter.start();
    await burner.burn();
    const cost = meter.stop(0);
    expect(cost.busySeconds).toBeGreaterThanOrEqual(0.29);
    expect(cost.unattributedSeconds).toBe(cost.busySeconds);
    expect(cost.busiestOthers.find((other) => other.command === burnerCommand)?.cpuSeconds).toBeGreaterThanOrEqual(0.29);
  });

  it("subtracts the measured processes' CPU and leaves them and their children out of the others", async () => {
    const burner = startBurner();
    const meter = new MachineMeter([process.pid]);
    meter.start();
    await burner.burn();
    const cost = meter.stop(0.29);
    expect(cost.unattributedSeconds).toBeCloseTo(cost.busySeconds - 0.29);
    expect(cost.busiestOthers.map((other) => other.command)).not.toContain(burnerCommand);
  });

  it('names a process it is told of by that name rather than its command', async () => {
    const burner = startBurner();
    const meter = new MachineMeter([], new Map([[burner.pid, 'raw-worker (off this path)']]));
    meter.start();
    await burner.burn();
    const others = meter.stop(0).busiestOthers;
    expect(others.find((other) => other.command === 'raw-worker (off this path)')?.cpuSeconds).toBeGreaterThanOrEqual(0.29);
    expect(others.map((other) => other.command)).not.toContain(burnerCommand);
  });
});
