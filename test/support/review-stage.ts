import type { AssessmentStage } from '../../src/contract';

/** One stage of an assessment's review pipeline: one approval required and no verdict yet, unless `details` says otherwise. */
export function reviewStage(
  name: string,
  group: string | null,
  state: AssessmentStage['state'],
  details: Partial<Omit<AssessmentStage, 'name' | 'group' | 'state'>> = {},
): AssessmentStage {
  return { name, group, approvals_required: 1, state, reviews: [], ...details };
}
