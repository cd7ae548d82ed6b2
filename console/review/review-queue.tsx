import type { PendingAssessment } from '../../src/common/review/assessment-review-client';
import { request } from '../api';
import { describeDue, shortTime } from '../format';
import { usePolling } from '../use-polling';

/** The open assessments, earliest deadline first as the API orders them; overdue ones marked. */
export function ReviewQueue() {
  const queue = usePolling(() => request<{ data: PendingAssessment[] }>('GET', '/v1/review/assessments'), 'queue');
  const now = new Date();
  return (
    <section aria-labelledby="queue-title">
      <h1 id="queue-title">Review queue</h1>
      {queue.error && <p role="alert" class="error">{queue.error}</p>}
      {queue.value && queue.value.data.length === 0 && <p>No assessments are waiting for review.</p>}
      {queue.value && queue.value.data.length > 0 && (
        <table class="list">
          <thead>
            <tr><th scope="col">Assessment</th><th scope="col">Organisation</th><th scope="col">Status</th><th scope="col">Reviewer</th><th scope="col">Due</th></tr>
          </thead>
          <tbody>
            {queue.value.data.map((item) => {
              const due = describeDue(item.due_at, now);
              return (
                <tr key={item.assessment_id} class={due.overdue ? 'overdue' : undefined}>
                  <td><a href={`#/review/${item.assessment_id}`}>{item.name}</a><div class="muted">{item.assessment_id}</div></td>
                  <td>{item.organization_id}</td>
                  <td>{item.checks_completed ? item.status : `${item.status} (checks running)`}</td>
                  <td>{item.claim?.reviewer ?? '—'}</td>
                  <td title={shortTime(item.due_at)}>{due.overdue ? <strong class="badge overdue-badge">OVERDUE</strong> : null} {due.text}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
    </section>
  );
}
