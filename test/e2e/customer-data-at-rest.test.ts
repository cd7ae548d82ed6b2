import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { resolveTemporalCli } from '../../src/embedded/temporal-cli';
import { freePort } from '../../src/embedded/free-port';
import { BuiltService } from '../support/built-service';
import { filesUnder, holding, markerAssessment, markerTask, newMarker } from '../support/customer-marker';
import { eventually } from '../support/eventually';
import { bearer, http } from '../support/http';

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'assay-at-rest-'));
const MARKER = newMarker();
let stack: BuiltService;
let baseUrl: string;
let key: string;

beforeAll(async () => {
  const [port, temporalPort, uiPort, codecPort] = [await freePort(), await freePort(), await freePort(), await freePort()];
  // `npm start` as a user runs it, every process logging at its most verbose level.
  stack = await BuiltService.start(
    'embedded',
    {
      PORT: String(port),
      TEMPORAL_ADDRESS: `127.0.0.1:${temporalPort}`,
      TEMPORAL_UI_PORT: String(uiPort),
      CODEC_PORT: String(codecPort),
      DATA_DIR: dataDir,
      LOG_LEVEL: 'trace',
      TEMPORAL_CLI_PATH: resolveTemporalCli(),
    },
    /Assay is running/,
    1,
    120_000,
  );
  baseUrl = `http://127.0.0.1:${port}`;
  key = fs.readFileSync(path.join(dataDir, 'demo-api-key.txt'), 'utf8').trim();
}, 150_000);

afterAll(async () => {
  // SIGTERM lets the launcher stop its dev server and children; SIGKILL only if it hangs.
  if (stack?.alive) {
    stack.signal('SIGTERM');
    await Promise.race([stack.exited, new Promise((resolve) => setTimeout(resolve, 30_000))]);
  }
  await stack?.kill();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

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
    stack.signal('SIGTERM');
    expect(await stack.exited).toMatchObject({ code: 0 });
    // Every file the stack wrote: Temporal's SQLite database with its WAL, its log, the key store.
    const written = filesUnder(dataDir);
    expect(written.map((file) => path.basename(file))).toEqual(expect.arrayContaining(['temporal.sqlite', 'temporal.log']));
    // The scan does read what was stored: the (unencrypted) workflow ids are there.
    const temporalDatabase = written.filter((file) => path.basename(file).startsWith('temporal.sqlite'));
    expect(holding(dataDir, temporalDatabase, taskId)).not.toEqual([]);
    expect(holding(dataDir, temporalDatabase, assessmentId)).not.toEqual([]);
    expect(holding(dataDir, written, MARKER)).toEqual([]);
    expect(stack.log.includes(taskId)).toBe(true);
    expect(stack.log.includes(MARKER)).toBe(false);
  });
});
