import { useState } from 'preact/hooks';
import type { AssessmentReviewSnapshot } from '../../src/contract/assessment';
import type { AssessmentStage, ReviewVerdict } from '../../src/sdk';
import { describeFailure, request, type ConsoleIdentity } from '../api';
import { describeDue, shortTime } from '../format';
import { usePolling } from '../use-polling';
import { ArchitectureGraph } from './architecture-graph';
import { RevisionLinks, WhatChanged } from './revision-changes';
import { ReviewStages } from './review-stages';
import { activeStage, approvalsOf, type ReviewedAssessment } from './review-wire';
import { SEVERITY_COLOURS, SEVERITY_ORDER } from './severity';
import { useReviewerGroups } from './use-reviewer-groups';

const VERDICTS: ReviewVerdict[] = ['approved', 'changes_requested', 'rejected'];
const NO_SELECTION: readonly string[] = [];

/** One assessment as a reviewer works on it: its stages, the drawing, the findings, what changed, the customer's context and the actions. */
export function ReviewAssessment({ id, identity }: { id: string; identity: ConsoleIdentity }) {
  const assessment = usePolling(() => request<ReviewedAssessment>('GET', `/v1/review/assessments/${encodeURIComponent(id)}`), id);
  const [selected, setSelected] = useState<readonly string[]>(NO_SELECTION);
  const view = assessment.value;
  if (!view) return <p role={assessment.error ? 'alert' : 'status'}>{assessment.error ?? 'Loading…'}</p>;
  const findings = [...(view.findings ?? [])].sort((a, b) => SEVERITY_ORDER.indexOf(a.severity) - SEVERITY_ORDER.indexOf(b.severity));
  const due = describeDue(view.due_at, new Date());
  const stage = activeStage(view);
  return (
    <article class="assessment" aria-labelledby="assessment-title">
      <p><a href="#/review">← Queue</a></p>
      <h1 id="assessment-title">{view.name}</h1>
      <p class="muted">
        {view.assessment_id} · organisation {view.organization_id} · <span data-testid="status">{view.status}</span>
        {stage && <> · stage <strong data-testid="active-stage">{stage.name}</strong>{stage.group ? ` (group ${stage.group})` : ''}</>}
        {view.claim && <> · claimed by {view.claim.reviewer}</>}
        {view.due_at && <> · due {shortTime(view.due_at)} ({due.overdue ? <><strong class="badge overdue-badge">OVERDUE</strong> </> : null}{due.text})</>}
      </p>
      <RevisionLinks view={view} />
      {assessment.error && <p role="alert" class="error">{assessment.error}</p>}
      {view.stages && view.stages.length > 0 && <ReviewStages stages={view.stages} />}
      <div class="columns">
        <div class="main-column">
          <ArchitectureGraph components={view.graph.components} links={view.graph.links} findings={findings} selected={selected} />
        </div>
        <aside class="side-column">
          <ReviewActions view={view} stage={stage} identity={identity} onDone={assessment.reload} />
          {view.revision && <WhatChanged changes={view.revision} />}
          <h2>Findings ({findings.length})</h2>
          {findings.length === 0 && <p>No findings{view.findings ? '' : ' yet: the checks are running'}.</p>}
          <ol class="findings">
            {findings.map((finding, index) => (
              <li key={index}>
                <button
                  type="button"
                  class="finding"
                  aria-pressed={selected === finding.component_ids}
                  onClick={() => setSelected(selected === finding.component_ids ? NO_SELECTION : finding.component_ids)}
                >
                  <span class="severity" data-severity={finding.severity}>{finding.severity}</span> <code>{finding.check}</code>
                  <span class="finding-message">{finding.message}</span>
                  <span class="muted">Components: {finding.component_ids.join(', ')}</span>
                </button>
              </li>
            ))}
          </ol>
          <h2>Customer context</h2>
          <p class="context">{view.context || '(none given)'}</p>
          <Legend />
        </aside>
      </div>
    </article>
  );
}

function Legend() {
  return (
    <p class="legend" aria-label="Severity colours">
      {SEVERITY_ORDER.map((severity) => (
        <span key={severity} class="severity" data-severity={severity} title={SEVERITY_COLOURS[severity]}>{severity}</span>
      ))}
    </p>
  );
}

interface ActionsProps {
  view: ReviewedAssessment;
  /** The stage the actions act on; undefined from an API without stages (one review, as before). */
  stage: AssessmentStage | undefined;
  identity: ConsoleIdentity;
  onDone: () => void;
}

/** Claim, verdict and release, on the active stage: the API decides who may act, and its refusal is shown as it gives it. */
function ReviewActions({ view, stage, identity, onDone }: ActionsProps) {
  const [verdict, setVerdict] = useState<ReviewVerdict>('approved');
  const [notes, setNotes] = useState('');
  const [message, setMessage] = useState<{ text: string; error: boolean } | undefined>(undefined);
  const [busy, setBusy] = useState(false);
  const groups = useReviewerGroups();
  const act = async (action: 'claim' | 'release' | 'complete', body?: unknown) => {
    setBusy(true);
    try {
      const snapshot = await request<AssessmentReviewSnapshot>('POST', `/v1/review/assessments/${encodeURIComponent(view.assessment_id)}/${action}`, body);
      setMessage({ text: describeOutcome(action, stage, verdict, snapshot), error: false });
      if (action === 'complete') setNotes('');
      onDone();
    } catch (error) {
      setMessage({ text: describeFailure(error), error: true });
    } finally {
      setBusy(false);
    }
  };
  const feedback = message && (
    <p role={message.error ? 'alert' : 'status'} class={message.error ? 'error' : 'ok'} data-testid="action-message">
      {message.text}
    </p>
  );
  if (view.status === 'completed') {
    // The verdict panel says what the last action did; only a refusal still needs saying.
    return (
      <>
        {message?.error && feedback}
        <p class="done" data-testid="review">Completed: {view.review?.verdict} by {view.review?.reviewer} — {view.review?.notes}</p>
      </>
    );
  }
  const mine = view.claim?.reviewer === identity.name;
  return (
    <section class="actions" aria-label="Review actions">
      {feedback}
      <p class="next-step" data-testid="next-step">{nextStep(view, stage, identity.name, groups)}</p>
      {!view.claim && <button type="button" disabled={busy} onClick={() => act('claim')}>{stage ? `Claim ${stage.name}` : 'Claim'}</button>}
      {mine && (
        <form
          onSubmit={(event) => {
            event.preventDefault();
            void act('complete', { verdict, notes });
          }}
        >
          <fieldset>
            <legend>Verdict{stage ? ` for ${stage.name}` : ''}</legend>
            {VERDICTS.map((value) => (
              <label key={value}>
                <input type="radio" name="verdict" value={value} checked={verdict === value} onChange={() => setVerdict(value)} /> {value.replace('_', ' ')}
              </label>
            ))}
          </fieldset>
          <label for="notes">Notes for the customer</label>
          <textarea id="notes" required rows={4} value={notes} onInput={(event) => setNotes((event.target as HTMLTextAreaElement).value)} />
          <div class="buttons">
            <button type="submit" disabled={busy || notes.trim() === ''}>Complete</button>
            <button type="button" class="secondary" disabled={busy} onClick={() => act('release')}>Release</button>
          </div>
        </form>
      )}
    </section>
  );
}

/** What this reviewer may do next on the active stage, as far as the page can tell; the API has the last word. */
function nextStep(view: ReviewedAssessment, stage: AssessmentStage | undefined, me: string | undefined, groups: string[] | undefined): string {
  if (!stage) {
    if (!view.claim) return 'Waiting for a reviewer: claim it to give the verdict.';
    return view.claim.reviewer === me ? 'You hold the review: give your verdict, or release it.' : `Claimed by ${view.claim.reviewer}; only they can complete or release it.`;
  }
  const approvals = approvalsOf(stage);
  const needs = stage.approvals_required > 1 ? ` (${approvals} of ${stage.approvals_required} approvals, from different reviewers)` : '';
  if (stage.claim) {
    if (stage.claim.reviewer === me) return `You hold stage ${stage.name}${needs}: give your verdict, or release it.`;
    return `Stage ${stage.name} is claimed by ${stage.claim.reviewer}; only they can complete or release it.`;
  }
  if (stage.group && groups && !groups.includes(stage.group)) return `Stage ${stage.name} is for group ${stage.group}, which you are not in: a member of it reviews next.`;
  if (stage.reviews.some((review) => review.reviewer === me && review.verdict === 'approved')) {
    return `You approved stage ${stage.name}${needs}; a different reviewer${stage.group ? ` of group ${stage.group}` : ''} must give the next approval.`;
  }
  return `Stage ${stage.name} waits for a claim${stage.group ? ` by a member of group ${stage.group}` : ''}${needs}.`;
}

/** The outcome of an accepted action in words, from the state the API answered with. */
function describeOutcome(action: 'claim' | 'release' | 'complete', stage: AssessmentStage | undefined, verdict: ReviewVerdict, after: AssessmentReviewSnapshot): string {
  const on = stage ? ` stage ${stage.name}` : '';
  if (action === 'claim') return `Claimed${on}`;
  if (action === 'release') return `Released${on}: it waits for a claim again`;
  if (after.review) return `Completed: ${after.review.verdict}`;
  const next = after.stages?.find((candidate) => candidate.state === 'active');
  if (next && next.name === stage?.name) return `Recorded your ${verdict.replace('_', ' ')} in${on}: ${approvalsOf(next)} of ${next.approvals_required} approvals; it waits for another reviewer`;
  return `Recorded your ${verdict.replace('_', ' ')} in${on}${next ? `; stage ${next.name} is next` : ''}`;
}
