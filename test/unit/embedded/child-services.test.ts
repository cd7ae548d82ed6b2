import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { API_NODE_FLAGS } from '../../../src/api/api-node-flags';
import { describeChildExit, startChild, stopChild } from '../../../src/embedded/child-services';

describe('describeChildExit', () => {
  test('names the signal that stopped a child, never "code null"', () => {
    expect(describeChildExit('worker', { code: null, signal: 'SIGTERM' }, false)).toBe('worker stopped by SIGTERM unexpectedly');
  });

  test('names the code a child exited with', () => {
    expect(describeChildExit('api', { code: 1, signal: null }, false)).toBe('api exited with code 1 unexpectedly');
  });

  test.each([
    ['SIGTERM', { code: null, signal: 'SIGTERM' as const }],
    ['SIGINT', { code: null, signal: 'SIGINT' as const }],
    ['a clean exit', { code: 0, signal: null }],
  ])("says nothing of a child ending by %s during the supervisor's own shutdown", (_case, exit) => {
    expect(describeChildExit('worker', exit, true)).toBeUndefined();
  });

  test('reports a child that ends badly during the shutdown, without calling it unexpected', () => {
    expect(describeChildExit('worker', { code: null, signal: 'SIGKILL' }, true)).toBe('worker stopped by SIGKILL while stopping');
    expect(describeChildExit('api', { code: 1, signal: null }, true)).toBe('api exited with code 1 while stopping');
  });
});

describe('a real child', () => {
  let dir: string;

  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'assay-child-'));
    fs.writeFileSync(path.join(dir, 'idle.js'), 'setInterval(() => undefined, 1000);\n');
  });

  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  test('killed with SIGTERM by someone else is reported as stopped by SIGTERM', async () => {
    const child = startChild('worker', path.join(dir, 'idle.js'), process.env);
    child.process.kill('SIGTERM');

    const exit = await child.exited;

    expect(exit).toEqual({ code: null, signal: 'SIGTERM' });
    expect(describeChildExit(child.name, exit, false)).toBe('worker stopped by SIGTERM unexpectedly');
  });

  test("stopped by the supervisor's SIGTERM leaves nothing to report", async () => {
    const child = startChild('api', path.join(dir, 'idle.js'), process.env);

    await stopChild(child, 5_000);

    expect(describeChildExit(child.name, await child.exited, true)).toBeUndefined();
  });

  test("starts Node with the child's own flags, as the API's heap settings", async () => {
    const out = path.join(dir, 'flags.json');
    fs.writeFileSync(path.join(dir, 'flags.js'), `require('fs').writeFileSync(${JSON.stringify(out)}, JSON.stringify(process.execArgv));\n`);
    const child = startChild('api', path.join(dir, 'flags.js'), process.env, API_NODE_FLAGS);

    expect(await child.exited).toEqual({ code: 0, signal: null });
    expect(JSON.parse(fs.readFileSync(out, 'utf8'))).toEqual(API_NODE_FLAGS);
  });
});
