// The context window a task on a remote model plans with: a workflow-only helper of the task workflow.

import { ApplicationFailure } from '@temporalio/workflow';
import { MIN_CONTEXT_TOKENS, largestOutputTokens, type ActivityTaskErrorCode, type RemoteTaskModel } from '../src/contract';

/**
 * How often a task plans again in smaller steps before it gives up: a server that states its window
 * needs one, one that does not is halved to it (8,192 to 2,048 tokens in two), and a broken server
 * that refuses everything fails the task after this many rounds instead of looping.
 */
export const MAX_CONTEXT_SHRINKS = 4;

/**
 * The window the task plans with: the model's declared one, or less once a call proved it smaller.
 * The answer's length is lowered with it where the declared one would no longer let two answers
 * and the prompt fit one combining call.
 */
export class ContextWindow {
  private shrinks = 0;
  private current: RemoteTaskModel;

  /** `learned`: the smaller window the worker learned for the model before this task, if any. */
  constructor(
    private readonly declared: RemoteTaskModel,
    learned: number | null,
  ) {
    this.current = learned !== null && learned < declared.contextTokens ? withContextTokens(declared, learned) : declared;
  }

  /** The model's figures as the task plans with them now. */
  get model(): RemoteTaskModel {
    return this.current;
  }

  /**
   * Smaller, after the provider refused a call as longer than the window: the window it stated when
   * that is smaller, else half the one planned with. Answers what the task learned of the model (the
   * stated window, else the new one); throws INPUT_REJECTED past MAX_CONTEXT_SHRINKS or below the
   * smallest window Assay plans for.
   */
  shrink(stated: number | undefined): number {
    const planned = this.current.contextTokens;
    const next = stated !== undefined && stated < planned ? stated : Math.floor(planned / 2);
    this.shrinks += 1;
    if (this.shrinks > MAX_CONTEXT_SHRINKS || next < MIN_CONTEXT_TOKENS) {
      throw ApplicationFailure.nonRetryable(
        `the model refused the text as longer than its context window, also in steps planned for ${planned} tokens (declared ${this.declared.contextTokens})`,
        'INPUT_REJECTED' satisfies ActivityTaskErrorCode,
      );
    }
    this.current = withContextTokens(this.declared, next);
    return stated ?? next;
  }
}

function withContextTokens(model: RemoteTaskModel, contextTokens: number): RemoteTaskModel {
  return { ...model, contextTokens, maxOutputTokens: Math.min(model.maxOutputTokens, largestOutputTokens(contextTokens)) };
}
