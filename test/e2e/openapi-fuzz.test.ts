import * as path from 'node:path';
import { UNLIMITED_CREATES } from '../../bench/unlimited-creates';
import { AssayHarness } from '../support/assay-harness';
import { runSchemathesis } from '../support/schemathesis';

// Schemathesis generates requests from /openapi.json (valid ones and, in negative mode, ones the
// document forbids), chains them statefully (create, then get, cancel, delete what was created)
// and checks every answer against the document: no 5xx, only documented statuses, headers and
// bodies, invalid input refused, valid input accepted, 405 with Allow for undocumented methods.

const FUZZ_TIME_LIMIT_S = 100;
const EXAMPLES_PER_OPERATION = 12;

let harness: AssayHarness;
let key: string;

beforeAll(async () => {
  // The create limit would answer 429 to a fuzzer's stream of creates, which is not what it tests;
  // so would admission (ADMISSION_MAX_QUEUE_SECONDS), with no worker to drain the queue ever
  // (admission.test.ts tests it).
  // No request is held for Prefer: wait (PREFER_WAIT_MAX_PER_INSTANCE 0, answered at once as the
  // document allows): with no worker nothing ever changes, so every held create or GET would last
  // its whole wait and the fuzzer's time would go to waiting. Held answers are tested in
  // prefer-wait-get.test.ts and task-cancel-and-wait.test.ts.
  harness = await AssayHarness.start({ worker: false, env: { ...UNLIMITED_CREATES, ADMISSION_MAX_QUEUE_SECONDS: '0', PREFER_WAIT_MAX_PER_INSTANCE: '0' } });
  key = (await harness.issueKey('fuzz', 'test')).key;
});

afterAll(async () => {
  await harness?.stop();
});

it(
  'finds no answer that contradicts the OpenAPI document',
  async () => {
    const run = await runSchemathesis(
      path.join(__dirname, 'openapi-fuzz.schemathesis.toml'),
      [
        `${harness.baseUrl}/openapi.json`,
        '--checks=all',
        // QUERY (RFC 10008) is implemented on no path, so it is 501 everywhere (RFC 9110 §15.6.2), as
        // http-semantics.test.ts holds; the fuzzer would expect 405 for it as for PUT or TRACE.
        '--exclude-method=QUERY',
        '--mode=all',
        '--phases=examples,coverage,fuzzing,stateful',
        `--max-examples=${EXAMPLES_PER_OPERATION}`,
        `--max-time=${FUZZ_TIME_LIMIT_S}`,
        '--workers=1',
        '--seed=20261123',
        '--request-timeout=20',
        '--no-color',
        '--suppress-health-check=all',
        '--generation-database=none',
        `--header=Authorization: Bearer ${key}`,
      ],
      // --max-time is the whole run's budget: the examples and coverage phases run to their end (under
      // a minute on a quiet 2-core machine), then fuzzing and stateful testing repeat until it is spent.
      // A phase already started may overrun it; past this margin the run is taken as hung.
      (FUZZ_TIME_LIMIT_S + 180) * 1000,
    );
    // Its closing summary (operations tested, cases generated, failures found) goes in the test log.
    const lines = run.output.split('\n');
    const summary = lines.slice(lines.findIndex((line) => line.includes('SUMMARY'))).join('\n');
    process.stdout.write(`schemathesis ${summary}\n`);
    expect({ exitCode: run.exitCode, output: run.exitCode === 0 ? '' : run.output }).toEqual({ exitCode: 0, output: '' });
  },
  (FUZZ_TIME_LIMIT_S + 240) * 1000,
);
