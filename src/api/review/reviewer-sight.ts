import { Injectable } from '@nestjs/common';
import { AppConfig } from '../../common/config/app-config';
import type { QueueSight } from '../../common/storage/assessment-index-store';
import type { ReviewPlacement } from '../../common/storage/tables';
import type { AssessmentReviewSnapshot, ReviewStageState } from '../../contract';
import type { Reviewer } from '../platform/reviewers/reviewer-authenticator';

// A stage the review has not come to, or never will: an earlier stage's verdict ended it.
const NOT_REACHED: ReadonlySet<ReviewStageState> = new Set<ReviewStageState>(['pending', 'skipped']);

/**
 * Which assessments a reviewer sees (docs/api.md, Review operations): those that reached a stage
 * the reviewer may act on (one of their groups', or one without a group), whether it is active
 * there, went past it, or ended in it. Until then the assessment is none of theirs, as another
 * organisation's is none of a customer's, and the review answers as if it did not exist.
 * REVIEWERS_SEE_ALL_STAGES=true shows every reviewer the whole environment, as before groups.
 */
@Injectable()
export class ReviewerSight {
  constructor(private readonly config: AppConfig) {}

  /**
   * From the review state the workflow published. Until it published one (its checks run) the
   * assessment is at its first stage, whose group the review index holds; without its row there
   * is nothing to tell by, and it is not in sight.
   */
  sees(reviewer: Reviewer, state: AssessmentReviewSnapshot | undefined, indexed: Pick<ReviewPlacement, 'stageGroup'> | undefined): boolean {
    if (this.config.values.REVIEWERS_SEE_ALL_STAGES) return true;
    if (state === undefined) return indexed !== undefined && actsOn(reviewer, indexed.stageGroup);
    // Published before pipelines: its one stage had no group.
    if (state.stages === undefined) return true;
    return state.stages.some((stage) => !NOT_REACHED.has(stage.state) && actsOn(reviewer, stage.group));
  }

  /**
   * What the queue's index query keeps, from the active stage alone: a stage of the reviewer's
   * groups or of none, or one the environment's pipeline puts at or after the first such stage.
   * An assessment keeps the pipeline it was created with, so after a change of REVIEW_PIPELINES
   * this is a guess: the queue still asks `sees` of every row it reads (dropping one the guess let
   * through), and misses only an assessment past a stage of theirs that the new pipeline lacks.
   * Undefined when the reviewer sees everything.
   */
  queueSight(reviewer: Reviewer): QueueSight | undefined {
    if (this.config.values.REVIEWERS_SEE_ALL_STAGES) return undefined;
    const { stages } = this.config.reviewPipelines[reviewer.environment];
    const first = stages.findIndex((stage) => actsOn(reviewer, stage.group));
    return { stages: first === -1 ? [] : stages.slice(first).map((stage) => stage.name), groups: reviewer.groups };
  }
}

/** A stage without a group is every reviewer's. */
function actsOn(reviewer: Reviewer, group: string | null): boolean {
  return group === null || reviewer.groups.includes(group);
}
