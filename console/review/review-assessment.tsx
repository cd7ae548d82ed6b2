import { useState } from 'preact/hooks';
import type { OperatorAssessmentView } from '../../src/common/review/assessment-review-client';
import type { ReviewVerdict } from '../../src/sdk';
import { describeFailure, request, type ConsoleIdentity } from '../api';
import { describeDue, shortTime } from '../format';
import { usePolling } from '../use-polling';
import { ArchitectureGraph } from './architecture-graph';
import { SEVERITY_COLOURS, SEVERITY_ORDER } from './severity';

const VERDICTS: ReviewVerdict[] = ['approved', 'changes_requested', 'rejected'];
const NO_SELECTION: readonly string[] = [];

/** One assessment as a reviewer works on it: the drawing, the findings, the customer's context and the actions. */
export function ReviewAssessment({ id, identity }: { id: string; identity: ConsoleIdentity }) {
  const assessment = usePolling(() => request<OperatorAssessmentView>('GET', `/v1/review/assessments/${encodeURIComponent(id)}`), id);
  const [selected, setSelected] = useState<readonly string[]>(NO_SELECTION);
  const view = assessment.value;
  if (!view) return <p role={assessment.error ? 'alert' : 'status'}>{assessment.error ?? 'Loading…'}</p>;
  const findings = [...(view.findings ?? [])].sort((a, b) => SEVERITY_ORDER.indexOf(a.severity) - SEVERITY_ORDER.indexOf(b.severity));
  const due = describeDue(view.due_at, new Date());
  return (
    <article class="assessment" aria-labelledby="assessment-title">
      <p><a href="#/review">← Queue</a></p>
      <h1 id="assessment-title">{view.name}</h1>
      <p class="muted">
        {view.assessment_id} · organisation {view.organization_id} · <span data-testid="status">{view.status}</span>
        {view.claim && <> · claimed by {view.claim.reviewer}</>}
        {view.due_at && <> · due {shortTime(view.due_at)} ({due.overdue ? <strong class="badge overdue-badge">OVERDUE</strong> : null} {due.text})</>}
      </p>
      {assessment.error && <p role="alert" class="error">{assessment.error}</p>}
      <div class="columns">
        <div class="main-column">
          <ArchitectureGraph components={view.graph.components} links={view.graph.links} findings={findings} selected={selected} />
        </div>
        <aside class="side-column">
          <ReviewActions view={view} identity={identity} onDone={assessment.reload} />
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

function ReviewActions({ view, identity, onDone }: { view: OperatorAssessmentView; identity: ConsoleIdentity; onDone: () => void }) {
  const [verdict, setVerdict] = useState<ReviewVerdict>('approved');
  const [notes, setNotes] = useState('');
  const [message, setMessage] = useState<{ text: string; error: boolean } | undefined>(undefined);
  const [busy, setBusy] = useState(false);
  const act = async (action: 'claim' | 'release' | 'complete', body?: unknown) => {
    setBusy(true);
    try {
      await request('POST', `/v1/review/assessments/${encodeURIComponent(view.assessment_id)}/${action}`, body);
      setMessage({ text: action === 'complete' ? `Completed: ${verdict}` : action === 'claim' ? 'Claimed' : 'Released to the queue', error: false });
      onDone();
    } catch (error) {
      setMessage({ text: describeFailure(error), error: true });
    } finally {
      setBusy(false);
    }
  };
  if (view.status === 'completed') {
    return <p class="done" data-testid="review">Completed: {view.review?.verdict} by {view.review?.reviewer} — {view.review?.notes}</p>;
  }
  const mine = view.claim?.reviewer === identity.name;
  return (
    <section class="actions" aria-label="Review actions">
      {message && <p role={message.error ? 'alert' : 'status'} class={message.error ? 'error' : 'ok'}>{message.text}</p>}
      {!view.claim && <button type="button" disabled={busy} onClick={() => act('claim')}>Claim</button>}
      {mine && (
        <form
          onSubmit={(event) => {
            event.preventDefault();
            void act('complete', { verdict, notes });
          }}
        >
          <fieldset>
            <legend>Verdict</legend>
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
      {view.claim && !mine && <p>Claimed by {view.claim.reviewer}; only they can complete or release it.</p>}
    </section>
  );
}
