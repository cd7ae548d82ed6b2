import { createAssessmentCheckActivities, type AssessmentCheckActivities } from './assessment-checks/assessment-checks.activity';
import type { SummarizationProvider } from './summarize/provider';
import { createSummarizeActivities, type SummarizeActivities } from './summarize/summarize.activity';

export interface ActivityDependencies {
  summarizer: SummarizationProvider;
}

export type AssayActivities = SummarizeActivities & AssessmentCheckActivities;

/** Every activity the worker registers, built from its dependencies. */
export function createActivities(deps: ActivityDependencies): AssayActivities {
  return { ...createSummarizeActivities(deps.summarizer), ...createAssessmentCheckActivities() };
}
