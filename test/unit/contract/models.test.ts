import fc from 'fast-check';
import { CHARS_PER_TOKEN_ESTIMATE, PROMPT_RESERVE_TOKENS, SUMMARY_CHARS_PER_TOKEN, largestOutputTokens, modelTaskQueue } from '../../../src/contract';

/** Whether two answers of `outputTokens` at their longest, joined by a blank line, fit one combine call with the prompt and a third answer. */
function twoAnswersFit(contextTokens: number, outputTokens: number): boolean {
  const groupChars = 2 * outputTokens * SUMMARY_CHARS_PER_TOKEN + 2;
  return groupChars / CHARS_PER_TOKEN_ESTIMATE + outputTokens + PROMPT_RESERVE_TOKENS <= contextTokens;
}

describe('largestOutputTokens', () => {
  it.each([
    [512, 122],
    [2048, 540],
    [4096, 1099],
    [8192, 2216],
  ])('a context of %p tokens allows answers of at most %p', (context, largest) => {
    expect(largestOutputTokens(context)).toBe(largest);
  });

  it('is the largest answer of which two, joined by a blank line, fit a combine call with the prompt and a third', () => {
    fc.assert(
      fc.property(fc.integer({ min: 512, max: 10_000_000 }), (context) => {
        const largest = largestOutputTokens(context);
        expect(Number.isInteger(largest)).toBe(true);
        expect(twoAnswersFit(context, largest)).toBe(true);
        expect(twoAnswersFit(context, largest + 1)).toBe(false);
      }),
      { numRuns: 5000 },
    );
  });

  it('never shrinks as the context grows', () => {
    fc.assert(
      fc.property(fc.integer({ min: 512, max: 10_000_000 }), fc.nat({ max: 1000 }), (context, more) => {
        expect(largestOutputTokens(context + more)).toBeGreaterThanOrEqual(largestOutputTokens(context));
      }),
    );
  });
});

describe('modelTaskQueue', () => {
  it("puts each model's calls on a task queue of its own beside the workflows'", () => {
    expect(modelTaskQueue('assay-tasks', 'llama-3.1:8b')).toBe('assay-tasks/model/llama-3.1:8b');
  });
});
