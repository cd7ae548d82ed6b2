import * as fs from 'node:fs';
import * as path from 'node:path';
import { installWorkerRuntime } from '../../src/worker/install-runtime';
import { replayRecorded } from '../support/replay-recorded';

const HISTORIES = path.join(__dirname, 'histories');

// Recorded from real runs by test/integration/workflows/assessment.workflow.test.ts
// with ASSAY_RECORD_HISTORIES=1 (docs/testing.md, "Replay tests").
const recorded = fs.readdirSync(HISTORIES).filter((file) => file.startsWith('assessment-') && file.endsWith('.json'));

beforeAll(() => installWorkerRuntime('error'));

function readHistory(file: string): { events: Array<{ eventType: string; workflowExecutionUpdateAcceptedEventAttributes?: { acceptedRequest?: { input?: { name?: string } } } }> } {
  return JSON.parse(fs.readFileSync(path.join(HISTORIES, file), 'utf8'));
}

describe('assessmentWorkflow replay', () => {
  it('has a recorded full review: checks, claim and complete, through to the close', () => {
    expect(recorded).toContain('assessment-full-review.json');
    const { events } = readHistory('assessment-full-review.json');
    const updates = events.flatMap((event) => event.workflowExecutionUpdateAcceptedEventAttributes?.acceptedRequest?.input?.name ?? []);
    expect(updates).toEqual(['claimAssessment', 'completeAssessment']);
    expect(events.filter((event) => event.eventType === 'EVENT_TYPE_ACTIVITY_TASK_COMPLETED')).toHaveLength(4);
    expect(events[events.length - 1].eventType).toBe('EVENT_TYPE_WORKFLOW_EXECUTION_COMPLETED');
  });

  it('has recorded the shapes around the review-pipelines patch: a release and re-claim before it, a two-stage four-eyes review after it', () => {
    expect(recorded).toEqual(expect.arrayContaining(['assessment-release-reclaim.json', 'assessment-release-reclaim-pipelines.json', 'assessment-two-stage-four-eyes.json']));
    const updatesOf = (file: string) => readHistory(file).events.flatMap((event) => event.workflowExecutionUpdateAcceptedEventAttributes?.acceptedRequest?.input?.name ?? []);
    expect(updatesOf('assessment-release-reclaim.json')).toEqual(['claimAssessment', 'releaseAssessment', 'claimAssessment', 'completeAssessment']);
    expect(updatesOf('assessment-two-stage-four-eyes.json')).toEqual(['claimAssessment', 'completeAssessment', 'claimAssessment', 'completeAssessment', 'claimAssessment', 'completeAssessment']);
  });

  it.each(recorded)('replays %s without nondeterminism', async (file) => {
    await replayRecorded(file, readHistory(file));
  });
});
