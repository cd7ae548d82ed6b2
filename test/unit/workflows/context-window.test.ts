import { ApplicationFailure } from '@temporalio/workflow';
import { MIN_CONTEXT_TOKENS, largestOutputTokens, type RemoteTaskModel } from '../../../src/contract';
import { ContextWindow, MAX_CONTEXT_SHRINKS } from '../../../workflows/context-window';
import { planDocument } from '../../../workflows/document-plan';

const DECLARED: RemoteTaskModel = { name: 'smollm2', kind: 'remote', contextTokens: 8192, maxOutputTokens: 256, concurrency: 2, unavailableWaitMs: 60_000 };

function refusal(shrink: () => unknown): ApplicationFailure {
  try {
    shrink();
  } catch (error) {
    expect(error).toBeInstanceOf(ApplicationFailure);
    return error as ApplicationFailure;
  }
  throw new Error('it shrank');
}

describe('ContextWindow', () => {
  it('plans with the declared window until anything is learned', () => {
    expect(new ContextWindow(DECLARED, null).model).toBe(DECLARED);
  });

  it('plans with a window the worker learned when it is smaller than the declared one, and ignores a larger one', () => {
    expect(new ContextWindow(DECLARED, 2048).model).toEqual({ ...DECLARED, contextTokens: 2048 });
    expect(new ContextWindow(DECLARED, 16_384).model).toBe(DECLARED);
  });

  it('shrinks to the window the provider stated, and answers it as learned', () => {
    const window = new ContextWindow(DECLARED, null);
    expect(window.shrink(2048)).toBe(2048);
    expect(window.model.contextTokens).toBe(2048);
    // A text of 40 KB on the window the server stated: chunks of at most (2048 - 256 - 64) x 3 characters.
    expect(planDocument('Word. '.repeat(7000), window.model).chunkMaxChars).toBe((2048 - 256 - 64) * 3);
  });

  it('halves the window when the provider stated none, or stated one no smaller than planned, and answers what it knows of the model', () => {
    const window = new ContextWindow(DECLARED, null);
    expect(window.shrink(undefined)).toBe(4096);
    expect(window.model.contextTokens).toBe(4096);
    // The text tokenises denser than planned: the model has the window it states, this task plans with less.
    expect(window.shrink(4096)).toBe(4096);
    expect(window.model.contextTokens).toBe(2048);
  });

  it("lowers the answer's length where two answers and the prompt would no longer fit one combining call", () => {
    const window = new ContextWindow(DECLARED, null);
    window.shrink(MIN_CONTEXT_TOKENS);
    expect(window.model).toEqual({ ...DECLARED, contextTokens: MIN_CONTEXT_TOKENS, maxOutputTokens: largestOutputTokens(MIN_CONTEXT_TOKENS) });
    expect(largestOutputTokens(MIN_CONTEXT_TOKENS)).toBeLessThan(DECLARED.maxOutputTokens);
  });

  it(`fails INPUT_REJECTED after ${MAX_CONTEXT_SHRINKS} shrinks, so a server that refuses everything cannot loop`, () => {
    const window = new ContextWindow({ ...DECLARED, contextTokens: 1_000_000 }, null);
    for (let shrink = 0; shrink < MAX_CONTEXT_SHRINKS; shrink++) window.shrink(undefined);
    expect(window.model.contextTokens).toBe(1_000_000 / 2 ** MAX_CONTEXT_SHRINKS);
    const failure = refusal(() => window.shrink(undefined));
    expect(failure.type).toBe('INPUT_REJECTED');
    expect(failure.nonRetryable).toBe(true);
    expect(failure.message).toBe('the model refused the text as longer than its context window, also in steps planned for 62500 tokens (declared 1000000)');
  });

  it('fails INPUT_REJECTED rather than plan below the smallest window Assay plans for', () => {
    expect(refusal(() => new ContextWindow(DECLARED, null).shrink(MIN_CONTEXT_TOKENS - 1)).type).toBe('INPUT_REJECTED');
    const halving = new ContextWindow({ ...DECLARED, contextTokens: 1000, maxOutputTokens: 64 }, null);
    expect(refusal(() => halving.shrink(undefined)).type).toBe('INPUT_REJECTED');
  });
});
