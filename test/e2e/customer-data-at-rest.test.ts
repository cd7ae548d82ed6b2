import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { resolveTemporalCli } from '../../src/embedded/temporal-cli';
import { freePort } from '../../src/embedded/free-port';
import { BuiltService } from '../support/built-service';
import { eventually } from '../support/eventually';
import { SINGLE_ZONE_GRAPH } from '../support/graphs';
import { bearer, http } from '../support/http';

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'assay-at-rest-'));
const MARKER = `zq${Date.now().toString(36)}markerxv`;
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

/** Every file the stack wrote (Temporal's SQLite database with its WAL, its log, the key store) and everything it printed. */
function everythingWritten(): Array<[string, Buffer]> {
  const files = fs.readdirSync(dataDir, { recursive: true, withFileTypes: true }).filter((entry) => entry.isFile());
  return [...files.map((entry): [string, Buffer] => [entry.name, fs.readFileSync(path.join(entry.parentPath, entry.name))]), ['output of npm start', Buffer.from(stack.log)]];
}

describe('customer data at rest under npm start', () => {
  let taskId: string;
  let assessmentId: string;

  it('answers GET with the summary of a task whose text holds the marker', async () => {
    const created = await http(`${baseUrl}/v1/ai/tasks`, {
      method: 'POST',
      headers: { ...bearer(key), prefer: 'wait=30' },
      json: { task_type: 'summarize', input: { text: `The word of the day is ${MARKER}. The council approved the plan.` } },
    });
    taskId = created.body.id;
    const read = await http(`${baseUrl}/v1/ai/tasks/${taskId}`, { headers: bearer(key) });
    expect(read.body).toMatchObject({ status: 'succeeded', output: { summary: expect.stringContaining(MARKER) } });
  });

  it('answers GET with an assessment whose name, context and graph hold the marker', async () => {
    const graph = { ...SINGLE_ZONE_GRAPH, components: SINGLE_ZONE_GRAPH.components.map((component, index) => (index === 0 ? { ...component, attributes: { note: MARKER } } : component)) };
    const created = await http(`${baseUrl}/v1/network-assessments`, {
      method: 'POST',
      headers: bearer(key),
      json: { name: `Shop ${MARKER}`, context: `Runs ${MARKER} at peak.`, ...graph },
    });
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
    const written = everythingWritten();
    expect(written.map(([name]) => name)).toEqual(expect.arrayContaining(['temporal.sqlite', 'temporal.log', 'output of npm start']));
    // The scan does read what was stored: the (unencrypted) workflow ids are there.
    const temporalDatabase = Buffer.concat(written.filter(([name]) => name.startsWith('temporal.sqlite')).map(([, bytes]) => bytes));
    expect(temporalDatabase.includes(taskId)).toBe(true);
    expect(temporalDatabase.includes(assessmentId)).toBe(true);
    expect(written.filter(([, bytes]) => bytes.includes(MARKER)).map(([name]) => name)).toEqual([]);
  });
});
