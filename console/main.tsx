import { render } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import type { Assessment, Task } from '../src/sdk';
import { currentSession, describeFailure, signIn, signOut, type ConsoleIdentity } from './api';
import { ResourceDetail, ResourceList } from './developer/resource-list';
import { TASK_COLUMNS, TASK_DETAIL_FIELDS, taskStatus } from './developer/task-fields';
import { UsagePanel } from './developer/usage-panel';
import { WebhookEndpoints } from './developer/webhook-endpoints';
import { ReviewAssessment } from './review/review-assessment';
import { ReviewQueue } from './review/review-queue';
import { forgetReviewerGroups } from './review/use-reviewer-groups';

const TASK_STATUSES = ['queued', 'running', 'succeeded', 'failed'] as const;
const ASSESSMENT_STATUSES = ['submitted', 'under_review', 'completed'] as const;

/** The location hash is the console's route, so views can be linked and the back button works. */
function useRoute(): string {
  const [route, setRoute] = useState(location.hash.slice(1));
  useEffect(() => {
    const onChange = () => setRoute(location.hash.slice(1));
    addEventListener('hashchange', onChange);
    // Effects run after paint: a hash changed between the first render and now fired no event we heard.
    onChange();
    return () => removeEventListener('hashchange', onChange);
  }, []);
  return route;
}

function App() {
  const [identity, setIdentity] = useState<ConsoleIdentity | null | undefined>(undefined);
  useEffect(() => {
    currentSession().then((found) => setIdentity(found ?? null), () => setIdentity(null));
  }, []);
  if (identity === undefined) return <p role="status">Loading…</p>;
  if (identity === null) return <SignIn onSignedIn={setIdentity} />;
  return <Signed identity={identity} onSignedOut={() => setIdentity(null)} />;
}

function SignIn({ onSignedIn }: { onSignedIn: (identity: ConsoleIdentity) => void }) {
  const [credential, setCredential] = useState('');
  const [error, setError] = useState<string | undefined>(undefined);
  return (
    <main class="sign-in">
      <h1>Assay console</h1>
      <p>Reviewers sign in with their reviewer credential, customers with an API key. It is exchanged for a session and not kept in this browser.</p>
      <form
        onSubmit={async (event) => {
          event.preventDefault();
          try {
            const identity = await signIn(credential.trim());
            setCredential('');
            location.hash = identity.kind === 'reviewer' ? '#/review' : '#/tasks';
            onSignedIn(identity);
          } catch (failure) {
            setError(describeFailure(failure));
          }
        }}
      >
        <label for="credential">API key or reviewer credential</label>
        <input id="credential" type="password" autocomplete="off" required value={credential} onInput={(event) => setCredential((event.target as HTMLInputElement).value)} />
        <button type="submit">Sign in</button>
        {error && <p role="alert" class="error">{error}</p>}
      </form>
    </main>
  );
}

function Signed({ identity, onSignedOut }: { identity: ConsoleIdentity; onSignedOut: () => void }) {
  const route = useRoute();
  const who = identity.kind === 'reviewer' ? `Reviewer ${identity.name}` : `Organisation ${identity.organization_id}`;
  const links = identity.kind === 'reviewer' ? [['#/review', 'Review queue']] : [['#/tasks', 'Tasks'], ['#/assessments', 'Assessments'], ['#/webhooks', 'Webhooks'], ['#/usage', 'Usage']];
  return (
    <>
      <header class="top">
        <a class="skip" href="#content">Skip to content</a>
        <strong>Assay</strong>
        <nav aria-label="Console">
          {links.map(([href, label]) => <a key={href} href={href} aria-current={route.startsWith(href.slice(1)) ? 'page' : undefined}>{label}</a>)}
        </nav>
        <span class="who">{who} · {identity.environment === 'live' ? 'production' : 'sandbox'}</span>
        <button
          type="button"
          class="secondary"
          onClick={() => {
            forgetReviewerGroups();
            void signOut().then(onSignedOut, onSignedOut);
          }}
        >
          Sign out
        </button>
      </header>
      <main id="content" tabIndex={-1}>{identity.kind === 'reviewer' ? <ReviewRoutes route={route} identity={identity} /> : <DeveloperRoutes route={route} />}</main>
    </>
  );
}

function ReviewRoutes({ route, identity }: { route: string; identity: ConsoleIdentity }) {
  const id = /^\/review\/(asmt_[0-9A-Za-z]+)$/.exec(route)?.[1];
  // Keyed by id: following a revision link starts the page afresh (no selection or message carried over).
  return id ? <ReviewAssessment key={id} id={id} identity={identity} /> : <ReviewQueue />;
}

function DeveloperRoutes({ route }: { route: string }) {
  const task = /^\/tasks\/(task_[0-9A-Za-z]+)$/.exec(route)?.[1];
  if (task) return <ResourceDetail title={`Task ${task}`} path={`/v1/ai/tasks/${task}`} fields={TASK_DETAIL_FIELDS} />;
  const assessment = /^\/assessments\/(asmt_[0-9A-Za-z]+)$/.exec(route)?.[1];
  if (assessment) return <ResourceDetail title={`Assessment ${assessment}`} path={`/v1/network-assessments/${assessment}`} />;
  if (route.startsWith('/assessments')) {
    return <ResourceList<Assessment> title="Assessments" path="/v1/network-assessments" statuses={ASSESSMENT_STATUSES} idOf={(item) => item.assessment_id} labelOf={(item) => item.name ?? item.assessment_id} detailHref={(item) => `#/assessments/${item.assessment_id}`} />;
  }
  if (route.startsWith('/webhooks')) return <WebhookEndpoints />;
  if (route.startsWith('/usage')) return <UsagePanel />;
  return (
    <ResourceList<Task>
      title="Tasks"
      path="/v1/ai/tasks"
      statuses={TASK_STATUSES}
      idOf={(item) => item.id}
      labelOf={(item) => item.task_type}
      detailHref={(item) => `#/tasks/${item.id}`}
      statusOf={taskStatus}
      columns={TASK_COLUMNS}
    />
  );
}

const root = document.getElementById('app');
if (root) {
  root.textContent = '';
  render(<App />, root);
}
