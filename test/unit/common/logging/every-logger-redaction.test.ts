import { Writable } from 'node:stream';
import { generateApiKey } from '../../../../src/common/keys/api-key';
import { createLogger } from '../../../../src/common/logging/create-logger';
import { nestLogger } from '../../../../src/common/logging/nest-logger';
import { sdkLogger } from '../../../../src/worker/sdk-logger';

const key = generateApiKey('assay', 'live');
const secret = key.slice('assay_live_'.length, 'assay_live_'.length + 12);
const CUSTOMER_TEXT = 'customer-marker-7f3a the council approved the plan';
const REVIEW_NOTES = 'customer-marker-91bc reviewer notes';

function capture(): { lines: () => Array<Record<string, unknown>>; raw: () => string; destination: Writable } {
  const chunks: string[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      chunks.push(chunk.toString());
      done();
    },
  });
  return {
    destination,
    raw: () => chunks.join(''),
    lines: () => chunks.join('').split('\n').filter(Boolean).map((line) => JSON.parse(line) as Record<string, unknown>),
  };
}

// What each of Assay's loggers may be handed by careless code: customer content under its usual
// names, at any depth, and a key in a message, an error or an unexpected field.
const HOSTILE_FIELDS = {
  input: { text: CUSTOMER_TEXT },
  workflow: { args: [{ input: { text: CUSTOMER_TEXT } }], result: { summary: CUSTOMER_TEXT } },
  review: { notes: REVIEW_NOTES },
  request: { headers: { authorization: `Bearer ${key}` }, body: CUSTOMER_TEXT },
  odd: { nested: { deeper: key } },
};

function expectClean(raw: string): void {
  for (const marker of [secret, 'customer-marker-7f3a', 'customer-marker-91bc']) expect(raw).not.toContain(marker);
}

describe('every logger writes through the one redaction path', () => {
  it('the pino logger of the API, the worker, the supervisor and entrypoints', () => {
    const out = capture();
    const logger = createLogger('trace', 'api', out.destination);
    logger.info(HOSTILE_FIELDS, 'fields');
    logger.warn(`client sent ${key} in the path`);
    logger.error({ err: new Error(`lookup failed for ${key}`) }, 'failed');
    expectClean(out.raw());
    expect(out.lines()).toHaveLength(3);
    expect(out.lines()[0]).toMatchObject({ level: 'info', process: 'api', msg: 'fields', input: '[redacted]', review: { notes: '[redacted]' } });
    expect(typeof out.lines()[0].time).toBe('string');
  });

  it("the Temporal SDK's Runtime logger (its own lines, Core's, workflows' and activities')", () => {
    const out = capture();
    const logger = sdkLogger(createLogger('trace', 'worker', out.destination));
    logger.info('Activity failed', { ...HOSTILE_FIELDS, workflowId: 'ai-task/acme/task_01JAAAAAAAAAAAAAAAAAAAAAAA', trace_id: '0af7651916cd43dd8448eb211c80319c' });
    logger.log('WARN', `workflow saw ${key}`, { workflowId: 'assessment/acme/asmt_01JAAAAAAAAAAAAAAAAAAAAAAA' });
    expectClean(out.raw());
    expect(out.lines()[0]).toMatchObject({ level: 'info', process: 'worker', organisation: 'acme', task_id: 'task_01JAAAAAAAAAAAAAAAAAAAAAAA', trace_id: '0af7651916cd43dd8448eb211c80319c' });
    expect(out.lines()[1]).toMatchObject({ level: 'warn', organisation: 'acme', assessment_id: 'asmt_01JAAAAAAAAAAAAAAAAAAAAAAA' });
  });

  it("Nest's framework logger (and the modules' own Nest loggers)", () => {
    const out = capture();
    const logger = nestLogger(createLogger('trace', 'api', out.destination));
    logger.warn(`could not record key use: ${key}`, 'KeyUsage');
    logger.error(new Error(`exploded on ${CUSTOMER_TEXT}`.replace(CUSTOMER_TEXT, key)), 'ExceptionHandler');
    logger.log(HOSTILE_FIELDS, 'RoutesResolver');
    expectClean(out.raw());
    expect(out.lines()[0]).toMatchObject({ level: 'warn', process: 'api', context: 'KeyUsage' });
    expect(out.lines()[2]).toMatchObject({ level: 'debug', context: 'RoutesResolver' });
  });
});
