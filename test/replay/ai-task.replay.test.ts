import * as fs from 'node:fs';
import * as path from 'node:path';
import { installWorkerRuntime } from '../../src/worker/install-runtime';
import { replayRecorded } from '../support/replay-recorded';

const HISTORIES = path.join(__dirname, 'histories');

// Histories recorded from real runs with `temporal workflow show --output json` (docs/testing.md, "Replay tests").
const recorded = fs.readdirSync(HISTORIES).filter((file) => file.startsWith('ai-task-') && file.endsWith('.json'));

beforeAll(() => installWorkerRuntime('error'));

describe('aiTaskWorkflow replay', () => {
  it('has recorded histories to replay', () => {
    expect(recorded).toEqual(
      expect.arrayContaining([
        'ai-task-succeeded.json',
        'ai-task-input-rejected.json',
        'ai-task-local-summary.json',
        'ai-task-remote-provider-rejected.json',
        'ai-task-extractive-model.json',
        'ai-task-model-chunks.json',
        'ai-task-extractive-model-usage.json',
        'ai-task-extractive-model-usage-subscribers.json',
        'ai-task-extractive-in-one.json',
        'ai-task-model-chunks-usage.json',
        'ai-task-traced.json',
        'ai-task-deadline-in-time.json',
        'ai-task-deadline-in-time-judged.json',
        'ai-task-deadline-passed-mid-call.json',
        'ai-task-model-chunks-learned-window.json',
        'ai-task-deadline-passed-mid-call-learned-window.json',
        'ai-task-model-context-replanned.json',
      ]),
    );
  });

  it.each(recorded)('replays %s without nondeterminism', async (file) => {
    const history = JSON.parse(fs.readFileSync(path.join(HISTORIES, file), 'utf8'));
    await replayRecorded(file, history);
  });
});
