import { spawn, type ChildProcess } from 'node:child_process';
import * as readline from 'node:readline';
import { processTree, readProcessTreeCpuSeconds, readProcessCpuSeconds, readProcessTreePssBytes } from '../../../bench/process-usage';

// A parent whose child burns 0.3 CPU-seconds (measured by the child itself) and then either exits
// (reaped by the parent) or stays; the parent prints the child's pid once the burn is over.
const BURN_CPU_MICROS = 300_000;
const parentScript = (childStays: boolean) => `
const { spawn } = require('node:child_process');
const child = spawn(process.execPath, ['-e', 'while (process.cpuUsage().user < ${BURN_CPU_MICROS}) {} console.log("burnt"); ${childStays ? 'setInterval(() => {}, 1000)' : ''}'], { stdio: ['ignore', 'pipe', 'inherit'] });
child.stdout.once('data', () => ${childStays ? 'console.log(child.pid)' : 'child.once("exit", () => console.log(child.pid))'});
setInterval(() => {}, 1000);
`;

const started: ChildProcess[] = [];

async function startParent(childStays: boolean): Promise<{ parent: number; child: number }> {
  const parent = spawn(process.execPath, ['-e', parentScript(childStays)], { stdio: ['ignore', 'pipe', 'inherit'] });
  started.push(parent);
  const { value } = await readline.createInterface({ input: parent.stdout })[Symbol.asyncIterator]().next();
  return { parent: parent.pid as number, child: Number(value) };
}

afterEach(() => {
  for (const parent of started.splice(0)) parent.kill('SIGKILL');
});

describe('process tree usage (PostgreSQL and its backends)', () => {
  it("counts a live child's CPU time and lists the child in the tree", async () => {
    const { parent, child } = await startParent(true);
    try {
      expect(processTree(parent)).toEqual(expect.arrayContaining([parent, child]));
      expect(readProcessTreeCpuSeconds(parent) - readProcessCpuSeconds(parent)).toBeGreaterThanOrEqual(0.29);
      expect(readProcessTreePssBytes(parent)).toBeGreaterThan(0);
    } finally {
      process.kill(child, 'SIGKILL');
    }
  });

  it('keeps the CPU time of a child that has exited and been reaped', async () => {
    const { parent, child } = await startParent(false);
    expect(processTree(parent)).not.toContain(child);
    expect(readProcessTreeCpuSeconds(parent) - readProcessCpuSeconds(parent)).toBeGreaterThanOrEqual(0.29);
  });
});
