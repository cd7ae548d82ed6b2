import { Writable } from 'node:stream';
import { createLogger } from '../../../src/common/logging/create-logger';
import { sdkLogger } from '../../../src/worker/sdk-logger';

function capture(): { lines: () => Array<Record<string, unknown>>; destination: Writable } {
  const chunks: string[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      chunks.push(chunk.toString());
      done();
    },
  });
  return { destination, lines: () => chunks.join('').split('\n').filter(Boolean).map((line) => JSON.parse(line) as Record<string, unknown>) };
}

describe("the Temporal SDK's logger", () => {
  it('writes a line at or above the level with the resource its workflow id names', () => {
    const out = capture();
    sdkLogger(createLogger('info', 'worker', out.destination)).info('Workflow completed', { workflowId: 'ai-task/acme/task_01JAAAAAAAAAAAAAAAAAAAAAAA', runId: 'r1' });
    expect(out.lines()).toEqual([expect.objectContaining({ level: 'info', msg: 'Workflow completed', organisation: 'acme', task_id: 'task_01JAAAAAAAAAAAAAAAAAAAAAAA', runId: 'r1' })]);
  });

  it('builds nothing for a line below the level: its fields are never read', () => {
    const out = capture();
    const read: string[] = [];
    const meta = new Proxy({ workflowId: 'ai-task/acme/task_01JAAAAAAAAAAAAAAAAAAAAAAA' }, { get: (target, field) => (read.push(String(field)), Reflect.get(target, field)), ownKeys: (target) => (read.push('*'), Reflect.ownKeys(target)) });
    const logger = sdkLogger(createLogger('info', 'worker', out.destination));
    logger.debug('Activity started', meta);
    logger.log('TRACE', 'Workflow started', meta);
    expect(out.lines()).toEqual([]);
    expect(read).toEqual([]);
  });

  it("logs the warning about a worker without workflows at INFO: a model's worker has none by design", () => {
    const warnOnly = capture();
    sdkLogger(createLogger('warn', 'worker', warnOnly.destination)).warn('No workflows registered, not polling for workflow tasks');
    expect(warnOnly.lines()).toEqual([]);
    const info = capture();
    sdkLogger(createLogger('info', 'worker', info.destination)).warn('No workflows registered, not polling for workflow tasks');
    expect(info.lines()).toEqual([expect.objectContaining({ level: 'info' })]);
  });
});
