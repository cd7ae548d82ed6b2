import { QueueBacklog } from '../../../../../src/api/platform/admission/queue-backlog';
import type { TemporalClients } from '../../../../../src/api/platform/temporal/temporal-clients';

/** Temporal as the backlog reads it: every task queue type `ageSeconds` behind, each read counted. */
function temporalWith(ageSeconds: number) {
  const reads = { count: 0 };
  const describeTaskQueue = async () => {
    reads.count += 1;
    return { stats: { approximateBacklogAge: { seconds: ageSeconds, nanos: 0 } } };
  };
  const clients = {
    client: () => ({ workflowService: { describeTaskQueue } }),
    namespaceFor: () => 'assay-sandbox',
    taskQueue: 'assay',
    withDeadline: <T>(call: () => Promise<T>) => call(),
  } as unknown as TemporalClients;
  return { clients, reads };
}

beforeEach(() => jest.useFakeTimers({ now: Date.parse('2026-11-27T12:00:00Z') }));
afterEach(() => jest.useRealTimers());

describe('QueueBacklog', () => {
  it('answers at once with what it last read, reading again in the background at most once a second', async () => {
    const { clients, reads } = temporalWith(12);
    const backlog = new QueueBacklog(clients);
    expect(backlog.ageSeconds('test')).toBeUndefined();
    await jest.advanceTimersByTimeAsync(0);
    expect(backlog.ageSeconds('test')).toBe(12);
    expect(backlog.ageSeconds('test')).toBe(12);
    expect(reads.count).toBe(2);
    await jest.advanceTimersByTimeAsync(1_000);
    backlog.ageSeconds('test');
    expect(reads.count).toBe(4);
  });

  it('does not refuse on a figure read before a quiet spell', async () => {
    const { clients } = temporalWith(40);
    const backlog = new QueueBacklog(clients);
    backlog.ageSeconds('test');
    await jest.advanceTimersByTimeAsync(0);
    expect(backlog.ageSeconds('test')).toBe(40);
    await jest.advanceTimersByTimeAsync(5_000);
    expect(backlog.ageSeconds('test')).toBeUndefined();
  });
});
