import { allHandlersFinished, condition, log, metricMeter, patched, setHandler, upsertMemo, workflowInfo } from '@temporalio/workflow';
import { runAutomatedChecks } from './assessment-checks';
import { AssessmentReviewState } from './assessment-review-state';
import {
  EMIT_WEBHOOK_EVENTS_PATCH,
  assessmentStateQuery,
  claimAssessmentUpdate,
  completeAssessmentUpdate,
  releaseAssessmentUpdate,
  reviewOutcomeName,
  type AssessmentMemo,
  type AssessmentView,
  type AssessmentWorkflowInput,
} from '../src/contract';
import { emitWebhookEvent } from './emit-webhook-event';

/**
 * One network assessment: automated checks, then a durable wait for the architecture team that
 * may last days. Reviewers act through updates whose validators refuse what the state does not
 * allow, so a refused action leaves no trace in the history. After every transition the public
 * state goes into the memo, which the API reads with describe() while no worker runs. Past an
 * SLA the workflow records an escalation and keeps waiting; the timers are durable.
 */
export async function assessmentWorkflow(input: AssessmentWorkflowInput): Promise<AssessmentView> {
  const review = new AssessmentReviewState(input.sla, workflowInfo().startTime);
  const publish = (extra: Partial<AssessmentMemo> = {}) => upsertMemo({ ...extra, state: review.snapshot() });

  setHandler(assessmentStateQuery, () => review.view(), { description: 'Status, findings, claim, review and escalations' });
  setHandler(
    claimAssessmentUpdate,
    (request) => {
      const snapshot = review.claim(request, new Date());
      publish();
      return snapshot;
    },
    { validator: (request) => review.checkClaim(request), description: 'Claim for review: submitted -> under_review' },
  );
  setHandler(
    completeAssessmentUpdate,
    (request) => {
      const snapshot = review.complete(request, new Date());
      publish();
      return snapshot;
    },
    { validator: (request) => review.checkComplete(request), description: 'Record the verdict: under_review -> completed' },
  );
  setHandler(
    releaseAssessmentUpdate,
    (request) => {
      const snapshot = review.release(request, new Date());
      publish();
      return snapshot;
    },
    { validator: (request) => review.checkRelease(request), description: 'Give the claim up: under_review -> submitted' },
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
  if (patched(EMIT_WEBHOOK_EVENTS_PATCH) && view.review) {
    await emitWebhookEvent('assessment.reviewed', input.organizationId, input.assessmentId, reviewOutcomeName(view.review.verdict));
  }
  return view;
}
