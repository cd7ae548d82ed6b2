import * as path from 'node:path';
import { startEmbeddedStack, stopEmbeddedStack, type EmbeddedStack } from '../support/embedded-stack';
import { filesUnder, holding, markerAssessment, markerTask, newMarker } from '../support/customer-marker';
import { eventually } from '../support/eventually';
import { bearer, http } from '../support/http';

const MARKER = newMarker();
let stack: EmbeddedStack;
let baseUrl: string;
let key: string;

beforeAll(async () => {
  // `npm start` as a user runs it, every process logging at its most verbose level.
  stack = await startEmbeddedStack('assay-at-rest-', { LOG_LEVEL: 'trace' });
  ({ baseUrl, apiKey: key } = stack);
}, 150_000);

afterAll(() => stopEmbeddedStack(stack));

describe('customer data at rest under npm start', () => {
  let taskId: string;
  let assessmentId: string;

  it('answers GET with the summary of a task whose text holds the marker', async () => {
    const created = await http(`${baseUrl}/v1/ai/tasks`, {
      method: 'POST',
      headers: { ...bearer(key), prefer: 'wait=30' },
      json: markerTask(MARKER),
    });
    taskId = created.body.id;
    const read = await http(`${baseUrl}/v1/ai/tasks/${taskId}`, { headers: bearer(key) });
    expect(read.body).toMatchObject({ status: 'succeeded', output: { summary: expect.stringContaining(MARKER) } });
  });

  it('answers GET with an assessment whose name, context and graph hold the marker', async () => {
    const created = await http(`${baseUrl}/v1/network-assessments`, { method: 'POST', headers: bearer(key), json: markerAssessment(MARKER) });
    expect(created.status).toBe(202);
    assessmentId = created.body.assessment_id;
    const read = await eventually(
      () => http(`${baseUrl}/v1/network-assessments/${assessmentId}`, { headers: bearer(key) }),
      (response) => Array.isArray(response.body.findings),
      'the assessment’s findings',
    );
    expect(read.body.name).toBe(`Shop ${MARKER}`);
  });

  it('wrote the marker to neither Temporal’s database nor any log, at any level, while it wrote the ids', async () => {
    // Stopped first: SQLite's WAL is checkpointed into the database file, every log flushed.
    stack.service.signal('SIGTERM');
    expect(await stack.service.exited).toMatchObject({ code: 0 });
    // Every file the stack wrote: Temporal's SQLite database with its WAL, its log, the key store.
    const written = filesUnder(stack.dataDir);
    expect(written.map((file) => path.basename(file))).toEqual(expect.arrayContaining(['temporal.sqlite', 'temporal.log']));
    // The scan does read what was stored: the (unencrypted) workflow ids are there.
    const temporalDatabase = written.filter((file) => path.basename(file).startsWith('temporal.sqlite'));
    expect(holding(stack.dataDir, temporalDatabase, taskId)).not.toEqual([]);
    expect(holding(stack.dataDir, temporalDatabase, assessmentId)).not.toEqual([]);
    expect(holding(stack.dataDir, written, MARKER)).toEqual([]);
    expect(stack.service.log.includes(taskId)).toBe(true);
    expect(stack.service.log.includes(MARKER)).toBe(false);
  });
});
