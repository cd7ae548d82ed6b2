import { allHandlersFinished, condition, log, metricMeter, patched, setHandler, upsertMemo, workflowInfo } from '@temporalio/workflow';
import { runAutomatedChecks } from './assessment-checks';
import { AssessmentReviewState } from './assessment-review-state';
import {
  EMIT_WEBHOOK_EVENTS_PATCH,
  REVIEW_PIPELINES_PATCH,
  assessmentStateQuery,
  claimAssessmentUpdate,
  completeAssessmentUpdate,
  releaseAssessmentUpdate,
  reviewOutcomeName,
  singleStagePipeline,
  type AssessmentMemo,
  type AssessmentView,
  type AssessmentWorkflowInput,
} from '../src/contract';
import { emitWebhookEvent } from './emit-webhook-event';

/**
 * One network assessment: automated checks, then a durable wait for the architecture team that
 * may last days, through the stages of its review pipeline. Reviewers act through updates whose
 * validators refuse what the state does not allow (a claim outside the stage's group, a second
 * approval by the same reviewer), so a refused action leaves no trace in the history. After every
 * transition the public state goes into the memo, which the API reads with describe() while no
 * worker runs. Past a stage's deadline the workflow records an escalation and keeps waiting; the
 * timers are durable.
 */
export async function assessmentWorkflow(input: AssessmentWorkflowInput): Promise<AssessmentView> {
  // Without the patch, replay only (review-pipelines; when it may go: docs/patch-policy.md): one stage, a release back to submitted.
  const pipelined = patched(REVIEW_PIPELINES_PATCH);
  const review = new AssessmentReviewState(input.pipeline ?? singleStagePipeline(input.sla), workflowInfo().startTime, { releaseReturnsToSubmitted: !pipelined });
  const publish = (extra: Partial<AssessmentMemo> = {}) => upsertMemo({ ...extra, state: review.snapshot() });

  setHandler(assessmentStateQuery, () => review.view(), { description: 'Status, findings, claim, review and escalations' });
  setHandler(
    claimAssessmentUpdate,
    (request) => {
      const snapshot = review.claim(request, new Date());
      publish();
      return snapshot;
    },
    { validator: (request) => review.checkClaim(request), description: 'Claim the active stage for review (a member of its group); submitted -> under_review' },
  );
  setHandler(
    completeAssessmentUpdate,
    (request) => {
      const snapshot = review.complete(request, new Date());
      publish();
      return snapshot;
    },
    { validator: (request) => review.checkComplete(request), description: "Record a verdict on the active stage; the pipeline's last approval, or any other verdict, completes it" },
  );
  setHandler(
    releaseAssessmentUpdate,
    (request) => {
      const snapshot = review.release(request, new Date());
      publish();
      return snapshot;
    },
    { validator: (request) => review.checkRelease(request), description: "Give the active stage's claim up; the status stays under_review" },
  );

  const findings = await runAutomatedChecks(input.graph);
  review.recordFindings(findings, new Date());
  publish({ findings });

  while (!review.isCompleted) {
    const wait = review.currentWait();
    const moved = () => review.hasMovedSince(wait);
    const remainingMs = wait.dueAtMs - Date.now();
    if (remainingMs > 0 ? await condition(moved, remainingMs) : moved()) continue;
    review.escalate(wait, new Date());
    publish();
    // The memo change is the durable record; this line is for whoever watches the worker's logs.
    log.warn('assessment review is overdue', { assessmentId: input.assessmentId, organizationId: input.organizationId, escalation: wait.overdueKind });
    // assay_assessment_reviews_overdue_total on the worker's metrics endpoint; no command, and nothing while replaying.
    metricMeter.createCounter('assay_assessment_reviews_overdue', undefined, 'Assessment review SLA breaches, by which deadline passed').add(1, { escalation: wait.overdueKind });
    await condition(moved);
  }
  await condition(allHandlersFinished);
  const view = review.view();
  // Without the patch, replay only (emit-webhook-events; docs/patch-policy.md): no event.
  if (patched(EMIT_WEBHOOK_EVENTS_PATCH) && view.review) {
    await emitWebhookEvent('assessment.reviewed', input.organizationId, input.assessmentId, reviewOutcomeName(view.review.verdict));
  }
  return view;
}
