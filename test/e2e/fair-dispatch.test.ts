import { QUIET_ORGANIZATION, useHeldService } from '../support/dispatch-order';

const BACKLOG = 20;
const service = useHeldService(true);

describe('fair dispatch across organisations', () => {
  it("runs one organisation's task before another's earlier backlog", async () => {
    const order = await service.summaryOrderAfterBacklog(BACKLOG);
    // With two slots the worker takes tasks two at a time: the quiet task is in the first pair, or
    // the one right after it; in arrival order it would be last (arrival-order-dispatch.test.ts).
    expect(order.indexOf(QUIET_ORGANIZATION)).toBeLessThan(3);
  });
});
