import { createContextWindowActivities } from '../../../../activities/summarize/learned-context-windows';

describe('createContextWindowActivities', () => {
  it('knows nothing of a model until a window is remembered for it, then keeps the smallest', async () => {
    const windows = createContextWindowActivities();
    expect(await windows.learnedContextTokens('smollm2')).toBeNull();
    await windows.rememberContextTokens('smollm2', 4096);
    await windows.rememberContextTokens('smollm2', 2048);
    await windows.rememberContextTokens('smollm2', 4096);
    expect(await windows.learnedContextTokens('smollm2')).toBe(2048);
    expect(await windows.learnedContextTokens('gpt-4o')).toBeNull();
  });

  it('keeps what each set of activities learned apart: the worker makes one per process', async () => {
    const first = createContextWindowActivities();
    await first.rememberContextTokens('smollm2', 2048);
    expect(await createContextWindowActivities().learnedContextTokens('smollm2')).toBeNull();
  });
});
