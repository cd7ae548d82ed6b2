import { AppConfig, InvalidConfigError } from '../../../../src/common/config/app-config';
import { organizationPriority } from '../../../../src/common/temporal/organization-priority';
import { defaultStickyCacheSize, machineStickyCacheBudget } from '../../../../src/worker/sticky-cache-size';
import { batchWorkerOptions, taskWorkerOptions } from '../../../../src/worker/task-worker-options';

describe('fairness weights', () => {
  it('default to none: every organisation weighs 1', () => {
    expect(new AppConfig({}).values.FAIRNESS_WEIGHTS.size).toBe(0);
  });

  it('read organisation=weight pairs, spaces and empty entries allowed', () => {
    const weights = new AppConfig({ FAIRNESS_WEIGHTS: ' acme=2, ,small-co = 0.5,' }).values.FAIRNESS_WEIGHTS;
    expect([...weights]).toEqual([
      ['acme', 2],
      ['small-co', 0.5],
    ]);
  });

  it.each([
    ['acme', /"acme" must be an organisation id/],
    ['Acme=2', /"Acme=2" must be an organisation id/],
    ['acme=2=3', /must be an organisation id/],
    ['acme=', /weight of acme must be a number from 0.001 to 1000/],
    ['acme=heavy', /weight of acme must be a number/],
    ['acme=0', /weight of acme must be a number/],
    ['acme=1001', /weight of acme must be a number/],
    ['acme=1,acme=2', /acme is listed twice/],
  ])('refuse %p with a message naming the variable', (value, message) => {
    expect(() => new AppConfig({ FAIRNESS_WEIGHTS: value })).toThrow(InvalidConfigError);
    expect(() => new AppConfig({ FAIRNESS_WEIGHTS: value })).toThrow(new RegExp(`FAIRNESS_WEIGHTS: .*${message.source}`));
  });

  it('make the organisation the fairness key, with its weight only when one is configured', () => {
    const weights = new AppConfig({ FAIRNESS_WEIGHTS: 'acme=2' }).values.FAIRNESS_WEIGHTS;
    expect(organizationPriority('acme', weights)).toEqual({ fairnessKey: 'acme', fairnessWeight: 2 });
    expect(organizationPriority('other', weights)).toEqual({ fairnessKey: 'other' });
  });

  it("give each priority a lane of the organisation's own, with the organisation's weight and no priority key", () => {
    const weights = new AppConfig({ FAIRNESS_WEIGHTS: 'acme=2' }).values.FAIRNESS_WEIGHTS;
    expect(organizationPriority('acme', weights, 'high')).toEqual({ fairnessKey: 'acme+', fairnessWeight: 2 });
    expect(organizationPriority('acme', weights, 'normal')).toEqual({ fairnessKey: 'acme', fairnessWeight: 2 });
    expect(organizationPriority('acme', weights, 'low')).toEqual({ fairnessKey: 'acme~', fairnessWeight: 2 });
    // The longest organisation id's lanes still fit Temporal's 64-byte fairness key.
    const longest = 'a'.repeat(63);
    for (const priority of ['high', 'normal', 'low'] as const) expect(Buffer.byteLength(organizationPriority(longest, weights, priority).fairnessKey as string)).toBeLessThanOrEqual(64);
  });
});

describe('worker slots per environment', () => {
  it('default to 32 for production and 16 for the sandbox, and 100 activities each', () => {
    const { values } = new AppConfig({});
    expect([values.WORKER_SLOTS_PRODUCTION, values.WORKER_SLOTS_SANDBOX]).toEqual([32, 16]);
    expect([values.WORKER_ACTIVITY_SLOTS_PRODUCTION, values.WORKER_ACTIVITY_SLOTS_SANDBOX]).toEqual([100, 100]);
  });

  it('are set per environment', () => {
    const { values } = new AppConfig({ WORKER_SLOTS_PRODUCTION: '64', WORKER_SLOTS_SANDBOX: '4', WORKER_ACTIVITY_SLOTS_SANDBOX: '1' });
    expect([values.WORKER_SLOTS_PRODUCTION, values.WORKER_SLOTS_SANDBOX, values.WORKER_ACTIVITY_SLOTS_SANDBOX]).toEqual([64, 4, 1]);
  });

  it.each([
    ['WORKER_SLOTS_SANDBOX', '1'],
    ['WORKER_SLOTS_SANDBOX', '2.5'],
    ['WORKER_SLOTS_PRODUCTION', '1001'],
    ['WORKER_ACTIVITY_SLOTS_PRODUCTION', '0'],
    ['WORKER_ACTIVITY_SLOTS_SANDBOX', 'many'],
    ['WORKER_BATCH_SLOTS', '1'],
  ])('refuse %s=%p', (name, value) => {
    expect(() => new AppConfig({ [name]: value })).toThrow(new RegExp(name));
  });
});

describe('worker environments', () => {
  it('default to both', () => {
    expect(new AppConfig({}).values.WORKER_ENVIRONMENTS).toEqual(['test', 'live']);
  });

  it.each([
    ['production', ['live']],
    ['sandbox', ['test']],
    [' production , sandbox ', ['live', 'test']],
    ['sandbox,sandbox', ['test']],
  ])('read %p', (value, environments) => {
    expect(new AppConfig({ WORKER_ENVIRONMENTS: value }).values.WORKER_ENVIRONMENTS).toEqual(environments);
  });

  it.each(['', 'live', 'production,', 'staging'])('refuse %p', (value) => {
    expect(() => new AppConfig({ WORKER_ENVIRONMENTS: value })).toThrow(/WORKER_ENVIRONMENTS: must be "sandbox", "production" or "sandbox,production"/);
  });
});

describe('the batch queue\'s worker', () => {
  it('takes WORKER_BATCH_SLOTS (2 by default) workflow tasks and local activities, and the task worker\'s activity slots', () => {
    const config = new AppConfig({ WORKER_ACTIVITY_SLOTS_SANDBOX: '7' });
    expect(batchWorkerOptions(config, 'test')).toMatchObject({ maxConcurrentWorkflowTaskExecutions: 2, maxConcurrentLocalActivityExecutions: 2, maxConcurrentActivityTaskExecutions: 7 });
    expect(taskWorkerOptions(config, 'test')).toMatchObject({ maxConcurrentWorkflowTaskExecutions: 16, maxConcurrentLocalActivityExecutions: 16 });
    expect(batchWorkerOptions(new AppConfig({ WORKER_BATCH_SLOTS: '5' }), 'live')).toMatchObject({ maxConcurrentWorkflowTaskExecutions: 5 });
  });
});

describe('the workers\' sticky cache', () => {
  it('is WORKER_MAX_CACHED_WORKFLOWS on both queues when set, and sized to the machine when not', () => {
    const sized = taskWorkerOptions(new AppConfig({}), 'live').maxCachedWorkflows;
    expect(sized).toBe(defaultStickyCacheSize(machineStickyCacheBudget(2, false)));
    expect(batchWorkerOptions(new AppConfig({}), 'live').maxCachedWorkflows).toBe(sized);
    expect(taskWorkerOptions(new AppConfig({ WORKER_ENVIRONMENTS: 'production' }), 'live').maxCachedWorkflows).toBe(defaultStickyCacheSize(machineStickyCacheBudget(1, false)));
    expect(taskWorkerOptions(new AppConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318' }), 'live').maxCachedWorkflows).toBe(500);
    const config = new AppConfig({ WORKER_MAX_CACHED_WORKFLOWS: '50' });
    expect(taskWorkerOptions(config, 'test')).toMatchObject({ maxCachedWorkflows: 50 });
    expect(batchWorkerOptions(config, 'test')).toMatchObject({ maxCachedWorkflows: 50 });
    expect(() => new AppConfig({ WORKER_MAX_CACHED_WORKFLOWS: '1' })).toThrow(/WORKER_MAX_CACHED_WORKFLOWS/);
  });
});
