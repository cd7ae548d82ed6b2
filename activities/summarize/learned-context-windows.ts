import type { ContextWindowActivities } from '../../src/contract';

/**
 * The context windows this worker process learned, per model, from calls the provider refused as
 * too long: in memory, so each process learns once per model (one refused call) and forgets at a
 * restart, when a server given a larger window is planned for at its declared size again.
 * Only ever smaller: a task's plan must never grow back past what a call proved too large.
 */
export function createContextWindowActivities(): ContextWindowActivities {
  const learned = new Map<string, number>();
  return {
    async learnedContextTokens(modelName: string): Promise<number | null> {
      return learned.get(modelName) ?? null;
    },

    async rememberContextTokens(modelName: string, contextTokens: number): Promise<void> {
      learned.set(modelName, Math.min(contextTokens, learned.get(modelName) ?? contextTokens));
    },
  };
}
