import { summarizeText } from '../../workflows/ai-task.workflow';
import type { SummarizeInput } from '../../src/contract';

/** The least a Temporal design of a task can be: one workflow running the task's summary step, the summary as its result. */
export async function oneActivityWorkflow(input: SummarizeInput): Promise<string> {
  return summarizeText(input);
}
