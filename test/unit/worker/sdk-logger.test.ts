import { createLogger } from '../../../src/common/logging/create-logger';
import { sdkLogger } from '../../../src/worker/sdk-logger';
import { CapturedLog } from '../../support/captured-log';

describe("the Temporal SDK's logger", () => {
  it('writes a line at or above the level with the resource its workflow id names', () => {
    const log = new CapturedLog();
    sdkLogger(createLogger('info', 'worker', log.destination)).info('Workflow completed', { workflowId: 'ai-task/acme/task_01JAAAAAAAAAAAAAAAAAAAAAAA', runId: 'r1' });
    expect(log.entries()).toEqual([expect.objectContaining({ level: 'info', msg: 'Workflow completed', organisation: 'acme', task_id: 'task_01JAAAAAAAAAAAAAAAAAAAAAAA', runId: 'r1' })]);
  });

  it('builds nothing for a line below the level: its fields are never read', () => {
    const log = new CapturedLog();
    const read: string[] = [];
    const meta = new Proxy({ workflowId: 'ai-task/acme/task_01JAAAAAAAAAAAAAAAAAAAAAAA' }, { get: (target, field) => (read.push(String(field)), Reflect.get(target, field)), ownKeys: (target) => (read.push('*'), Reflect.ownKeys(target)) });
    const logger = sdkLogger(createLogger('info', 'worker', log.destination));
    logger.debug('Activity started', meta);
    logger.log('TRACE', 'Workflow started', meta);
    expect(log.entries()).toEqual([]);
    expect(read).toEqual([]);
  });

  it("logs the warning about a worker without workflows at INFO: a model's worker has none by design", () => {
    const warnOnly = new CapturedLog();
    sdkLogger(createLogger('warn', 'worker', warnOnly.destination)).warn('No workflows registered, not polling for workflow tasks');
    expect(warnOnly.entries()).toEqual([]);
    const info = new CapturedLog();
    sdkLogger(createLogger('info', 'worker', info.destination)).warn('No workflows registered, not polling for workflow tasks');
    expect(info.entries()).toEqual([expect.objectContaining({ level: 'info' })]);
  });
});
