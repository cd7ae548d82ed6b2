import { useState } from 'preact/hooks';
import type { ListPage } from '../../src/sdk';
import { request } from '../api';
import { describeDue, shortTime } from '../format';
import { usePolling } from '../use-polling';
import type { QueueItem } from './review-wire';
import { useReviewerGroups } from './use-reviewer-groups';

const PAGE_SIZE = '20';

/** The open assessments a page at a time, earliest deadline first as the API orders them; overdue ones marked, each with its stage under review. */
export function ReviewQueue() {
  const [overdue, setOverdue] = useState(false);
  const [mine, setMine] = useState(false);
  const [stage, setStage] = useState('');
  const [group, setGroup] = useState('');
  const [cursors, setCursors] = useState<string[]>([]);
  const myGroups = useReviewerGroups();
  const query = new URLSearchParams({ limit: PAGE_SIZE });
  if (overdue) query.set('overdue', 'true');
  if (mine) query.set('claimed_by_me', 'true');
  if (stage) query.set('stage', stage);
  if (group) query.set('group', group);
  const cursor = cursors[cursors.length - 1];
  if (cursor) query.set('cursor', cursor);
  const queue = usePolling(() => request<ListPage<QueueItem>>('GET', `/v1/review/assessments?${query}`), query.toString());
  // A cursor belongs to its filters: a change of filter starts again from the first page.
  const filter = (set: (value: boolean) => void) => (event: Event) => {
    set((event.target as HTMLInputElement).checked);
    setCursors([]);
  };
  // Names are taken when the field is left or Enter pressed, not at every keystroke.
  const named = (set: (value: string) => void) => (event: Event) => {
    set((event.target as HTMLInputElement).value.trim());
    setCursors([]);
  };
  const filtered = overdue || mine || stage !== '' || group !== '';
  const now = new Date();
  return (
    <section aria-labelledby="queue-title">
      <h1 id="queue-title">Review queue</h1>
      <form class="filters" onSubmit={(event) => event.preventDefault()}>
        <label><input type="checkbox" checked={overdue} onChange={filter(setOverdue)} /> Overdue only</label>
        <label><input type="checkbox" checked={mine} onChange={filter(setMine)} /> Claimed by me</label>
        <label>Stage <input type="text" class="name-filter" value={stage} placeholder="any" onChange={named(setStage)} /></label>
        <label>Group <input type="text" class="name-filter" list="my-groups" value={group} placeholder="any" onChange={named(setGroup)} /></label>
        {/* The reviewer's own groups offered first: the stages they may act on. */}
        <datalist id="my-groups">{myGroups?.map((name) => <option key={name} value={name} />)}</datalist>
      </form>
      {queue.error && <p role="alert" class="error">{queue.error}</p>}
      {queue.value && queue.value.data.length === 0 && <p>{filtered ? 'Nothing matches.' : 'No assessments are waiting for review.'}</p>}
      {queue.value && queue.value.data.length > 0 && (
        <table class="list">
          <thead>
            <tr><th scope="col">Assessment</th><th scope="col">Organisation</th><th scope="col">Status</th><th scope="col">Stage</th><th scope="col">Reviewer</th><th scope="col">Due</th></tr>
          </thead>
          <tbody>
            {queue.value.data.map((item) => {
              const due = describeDue(item.due_at, now);
              return (
                <tr key={item.assessment_id} class={due.overdue ? 'overdue' : undefined}>
                  <td><a href={`#/review/${item.assessment_id}`}>{item.name}</a><div class="muted">{item.assessment_id}</div></td>
                  <td>{item.organization_id}</td>
                  <td>{item.checks_completed ? item.status : `${item.status} (checks running)`}</td>
                  <td data-testid="queue-stage">{item.stage ?? '—'}{item.group ? <div class="muted">group {item.group}</div> : null}</td>
                  <td>{item.claim?.reviewer ?? '—'}</td>
                  <td title={shortTime(item.due_at)}>{due.overdue ? <strong class="badge overdue-badge">OVERDUE</strong> : null} {due.text}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
      {queue.value && (
        <div class="buttons">
          <button type="button" class="secondary" disabled={cursors.length === 0} onClick={() => setCursors(cursors.slice(0, -1))}>Previous</button>
          <button type="button" class="secondary" disabled={!queue.value.has_more} onClick={() => queue.value?.next_cursor && setCursors([...cursors, queue.value.next_cursor])}>Next</button>
        </div>
      )}
    </section>
  );
}
