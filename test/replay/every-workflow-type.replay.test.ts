import * as fs from 'node:fs';
import * as path from 'node:path';
import * as workflows from '../../workflows';
import { installWorkerRuntime } from '../../src/worker/install-runtime';
import { replayRecorded } from '../support/replay-recorded';

const HISTORIES = path.join(__dirname, 'histories');

interface RecordedHistory {
  events: Array<{ workflowExecutionStartedEventAttributes?: { workflowType?: { name?: string } } }>;
}

const recorded = fs.readdirSync(HISTORIES).filter((file) => file.endsWith('.json'));
const typeOf = (file: string) =>
  (JSON.parse(fs.readFileSync(path.join(HISTORIES, file), 'utf8')) as RecordedHistory).events[0]?.workflowExecutionStartedEventAttributes?.workflowType?.name;

beforeAll(() => installWorkerRuntime('error'));

// A workflow type without a recorded history could change shape unnoticed while runs are open.
describe('recorded histories', () => {
  it('cover every workflow type the worker registers', () => {
    const covered = new Set(recorded.map(typeOf));
    expect(Object.keys(workflows).filter((type) => !covered.has(type))).toEqual([]);
  });

  // The task and assessment histories replay in their own files, with their expected shapes named.
  it.each(recorded.filter((file) => ['webhook-event-', 'operator-close-sweep-', 'ai-batch-'].some((prefix) => file.startsWith(prefix))))('replays %s without nondeterminism', async (file) => {
    const history = JSON.parse(fs.readFileSync(path.join(HISTORIES, file), 'utf8'));
    await replayRecorded(file, history);
  });
});
