import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { runningChild, startChild, type RunningChild } from '../../../src/embedded/child-services';
import type { RestartLimits } from '../../../src/embedded/restart-policy';
import { Supervisor } from '../../../src/embedded/supervisor';
import { createLogger } from '../../../src/common/logging/create-logger';
import { eventually } from '../../support/eventually';

// Short enough for a unit test; the shape of the defaults (doubling, a cap, a crash window).
const QUICK: RestartLimits = { firstDelayMs: 20, maxDelayMs: 80, healthyRunMs: 60_000, maxCrashes: 3, crashWindowMs: 60_000 };
const GRACE_MS = 5_000;

interface LogLine {
  level: string;
  process: string;
  child?: string;
  pid?: number;
  msg: string;
}

let dir: string;
let lines: LogLine[];
let supervisor: Supervisor | undefined;
let gaveUp: string[];

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'assay-supervisor-'));
  fs.writeFileSync(path.join(dir, 'idle.js'), 'setInterval(() => undefined, 1000);\n');
  fs.writeFileSync(path.join(dir, 'crash.js'), 'process.exit(3);\n');
});

afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

beforeEach(() => {
  lines = [];
  gaveUp = [];
});

afterEach(async () => {
  await supervisor?.stop();
  supervisor = undefined;
});

function newSupervisor(limits: RestartLimits = QUICK): Supervisor {
  const log = createLogger('info', 'supervisor', { write: (line: string) => void lines.push(JSON.parse(line) as LogLine) });
  supervisor = new Supervisor(log, (name) => gaveUp.push(name), limits);
  return supervisor;
}

/** Starts `script` as the child `name`, remembering every process started. */
function starter(name: string, script: string, started: RunningChild[]): () => Promise<RunningChild> {
  return async () => {
    const child = runningChild(startChild(name, path.join(dir, script), process.env), GRACE_MS);
    started.push(child);
    return child;
  };
}

function alive(child: RunningChild): boolean {
  return child.process.exitCode === null && child.process.signalCode === null;
}

describe('Supervisor', () => {
  test('restarts a child killed with SIGKILL, logging the crash and the new pid', async () => {
    const started: RunningChild[] = [];
    await newSupervisor().supervise('worker', starter('worker', 'idle.js', started));

    started[0].process.kill('SIGKILL');
    await eventually(async () => lines.find((line) => line.msg === 'worker restarted'), Boolean, 'the restart');

    expect(started).toHaveLength(2);
    expect(alive(started[1])).toBe(true);
    expect(lines.map(({ level, process, child, pid, msg }) => ({ level, process, child, pid, msg }))).toEqual([
      { level: 'info', process: 'supervisor', child: 'worker', pid: started[0].process.pid, msg: 'worker started' },
      { level: 'warn', process: 'supervisor', child: 'worker', pid: undefined, msg: 'worker stopped by SIGKILL unexpectedly; restarting it in 0.02 s' },
      { level: 'info', process: 'supervisor', child: 'worker', pid: started[1].process.pid, msg: 'worker restarted' },
    ]);
  });

  test('gives up on a child that keeps crashing, says so and tells its owner', async () => {
    const started: RunningChild[] = [];
    await newSupervisor().supervise('api', starter('api', 'crash.js', started));

    await eventually(async () => gaveUp, (names) => names.length > 0, 'the supervisor to give up');

    expect(gaveUp).toEqual(['api']);
    expect(started).toHaveLength(QUICK.maxCrashes);
    expect(lines.at(-1)).toMatchObject({ level: 'error', child: 'api', msg: 'api exited with code 3 unexpectedly; giving up on api after 3 crashes within 60 s' });
  });

  test('counts a start that fails as a crash and tries again', async () => {
    const started: RunningChild[] = [];
    const start = starter('Temporal dev server', 'idle.js', started);
    let starts = 0;
    await newSupervisor().supervise('Temporal dev server', () => (++starts === 2 ? Promise.reject(new Error('not ready after 60000 ms')) : start()), { outputIn: '/data/temporal.log' });

    started[0].process.kill('SIGKILL');
    await eventually(async () => started, (children) => children.length === 2, 'the third start');

    expect(lines.filter((line) => line.level === 'warn').map((line) => line.msg)).toEqual([
      'Temporal dev server stopped by SIGKILL unexpectedly (its output: /data/temporal.log); restarting it in 0.02 s',
      'Temporal dev server did not start again: not ready after 60000 ms (its output: /data/temporal.log); restarting it in 0.04 s',
    ]);
  });

  test('restarts nothing once stopping: a pending restart is called off', async () => {
    const started: RunningChild[] = [];
    await newSupervisor({ ...QUICK, firstDelayMs: 60_000, maxDelayMs: 60_000 }).supervise('codec', starter('codec', 'idle.js', started));
    started[0].process.kill('SIGKILL');
    await eventually(async () => lines, (seen) => seen.length === 2, 'the crash report');

    const stoppingAt = Date.now();
    await supervisor?.stop();

    expect(Date.now() - stoppingAt).toBeLessThan(1_000);
    expect(started).toHaveLength(1);
  });

  test('stops a child whose restart was under way when stopping began', async () => {
    const started: RunningChild[] = [];
    const start = starter('worker', 'idle.js', started);
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let starts = 0;
    await newSupervisor().supervise('worker', async () => (++starts === 1 ? start() : released.then(start)));
    started[0].process.kill('SIGKILL');
    await eventually(async () => starts, (count) => count === 2, 'the restart to begin');

    const stopped = supervisor?.stop();
    release();
    await stopped;

    expect(started).toHaveLength(2);
    expect(alive(started[1])).toBe(false);
    expect(lines.some((line) => line.msg === 'worker restarted')).toBe(false);
  });

  test('stops the children the last started first, each after the one before is down', async () => {
    const order: string[] = [];
    const sup = newSupervisor();
    for (const name of ['Temporal dev server', 'worker', 'api']) {
      await sup.supervise(name, async () => {
        const child = runningChild(startChild(name, path.join(dir, 'idle.js'), process.env), GRACE_MS);
        return { ...child, stop: () => child.stop().then(() => void order.push(name)) };
      });
    }

    await sup.stop();

    expect(order).toEqual(['api', 'worker', 'Temporal dev server']);
    expect(lines.some((line) => line.level !== 'info')).toBe(false);
  });
});
