import type { BenchStack } from '../bench-stack';
import { sleep } from '../clock';
import { runClosedLoop } from '../closed-loop';
import { waitUntilQuiet } from '../quiet';
import { distribution, type Distribution } from '../stats';

/** The queue the issue measures first; the larger size is BENCH_REVIEW_ASSESSMENTS. */
export const REVIEW_SCALE_FIRST_SIZE = 100;
const CREATES_IN_FLIGHT = 32;
const CHECK_POLLS_IN_FLIGHT = 32;
const QUEUE_PAGE_SIZE = 20;
const CONSOLE_REFRESH_MS = 3_000;
// An everyday architecture: what the review GET decrypts from the history on a first open.
const ARCHITECTURE = {
  context: 'Checkout for the EU shop; peak 2,000 orders a minute.',
  components: ['internet', 'load_balancer', 'app', 'app', 'database'].map((kind, index) => ({ id: `c${index}`, kind, zone: index % 2 === 0 ? 'eu-1a' : 'eu-1b' })),
  links: [[0, 1], [1, 2], [1, 3], [2, 4], [3, 4]].map(([from, to]) => ({ from: `c${from}`, to: `c${to}` })),
};

export interface ReviewScaleSettings {
  /** Open assessments at the second measurement (BENCH_REVIEW_ASSESSMENTS). */
  assessments: number;
  organisations: number;
  /** Requests measured per operation and size. */
  samples: number;
}

/** One size's figures: each operation one request at a time, as a reviewer sends them. */
export interface ReviewScaleRun {
  open: number;
  /** From the first create of this size to the last assessment's checks seen done. */
  fillSeconds: number;
  /** GET /v1/review/assessments/{id} of an assessment this API has not opened before (reads its history once). */
  firstOpenMs: Distribution;
  /** The same GET again, as the console's refresh every 3 s sends it. */
  refreshMs: Distribution;
  claimMs: Distribution;
  releaseMs: Distribution;
  /** One page of 20, following next_cursor from the first page to the last and again. */
  queuePageMs: Distribution;
  /** Answers other than 200, over every measured request. */
  failures: number;
}

export interface ReviewScaleFigures {
  settings: ReviewScaleSettings;
  runs: ReviewScaleRun[];
}

interface Created {
  id: string;
  key: string;
}

/**
 * Issue 27: the review path at 100 open assessments and at BENCH_REVIEW_ASSESSMENTS (10,000 by
 * default), spread over 50 organisations. Assessments are created through the public API, with a
 * key per organisation (the bench's stack lifts the create limits), and measured once every one
 * has its checks done and the stack is quiet again.
 */
export async function runReviewScaleScenario(stack: BenchStack, settings: ReviewScaleSettings, say: (line: string) => void): Promise<ReviewScaleFigures> {
  const { issueKey, addReviewer } = stack;
  if (!issueKey || !addReviewer) throw new Error('the review-scale scenario needs the bench\'s own stack: it issues keys and a reviewer credential');
  const keys: string[] = [];
  for (let index = 1; index <= settings.organisations; index++) keys.push(await issueKey(`review-org-${String(index).padStart(2, '0')}`, 'test'));
  const reviewer = await addReviewer('bench-reviewer', 'test');
  const api = new ReviewerRequests(stack.baseUrl, reviewer);
  const created: Created[] = [];
  const opened = new Set<string>();
  const runs: ReviewScaleRun[] = [];
  for (const size of [REVIEW_SCALE_FIRST_SIZE, settings.assessments]) {
    const fillStartedAt = performance.now();
    await whileReadingTheQueue(api, async () => {
      await fill(stack.baseUrl, keys, created, size);
      await untilChecked(stack.baseUrl, created);
    });
    const fillSeconds = (performance.now() - fillStartedAt) / 1000;
    say(`[review-scale] ${size} open assessments over ${settings.organisations} organisations, checks done, in ${fillSeconds.toFixed(0)} s`);
    await waitUntilQuiet(stack);
    const run = await measure(api, created, opened, settings.samples, fillSeconds);
    say(`[review-scale] at ${size}: refresh p99 ${run.refreshMs.p99.toFixed(1)} ms, claim p99 ${run.claimMs.p99.toFixed(1)} ms, queue page p99 ${run.queuePageMs.p99.toFixed(1)} ms`);
    runs.push(run);
  }
  return { settings, runs };
}

/**
 * Runs `work` while reading the queue's first page every CONSOLE_REFRESH_MS, as a review console
 * left open does. Without a reader, the API's catch-up of its review index from visibility (once a
 * minute, on a queue read) would first run during the measurement, over every assessment created
 * since the last one.
 */
async function whileReadingTheQueue(api: ReviewerRequests, work: () => Promise<void>): Promise<void> {
  let working = true;
  const reader = (async () => {
    while (working) {
      await api.queuePage(null);
      await sleep(CONSOLE_REFRESH_MS);
    }
  })();
  try {
    await work();
  } finally {
    working = false;
    await reader;
  }
}

/** Creates assessments, a key per organisation in turn, until `size` exist; a 429 is sent again after its Retry-After. */
async function fill(baseUrl: string, keys: string[], created: Created[], size: number): Promise<void> {
  const first = created.length;
  await runClosedLoop(size - first, CREATES_IN_FLIGHT, async (offset) => {
    const key = keys[(first + offset) % keys.length];
    for (;;) {
      const response = await fetch(`${baseUrl}/v1/network-assessments`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ name: `Review bench ${first + offset}`, ...ARCHITECTURE }),
      });
      const body = (await response.json()) as { assessment_id?: string };
      // Admission defers creates while the checks' backlog is long; a client waits as told and sends again.
      if (response.status === 429) {
        await sleep(Number(response.headers.get('retry-after') ?? '1') * 1000);
        continue;
      }
      if (response.status !== 202 || !body.assessment_id) throw new Error(`a create answered ${response.status}: ${JSON.stringify(body)}`);
      created.push({ id: body.assessment_id, key });
      return;
    }
  });
}

/** Polls every assessment's customer GET until its findings are there, the slowest last. */
async function untilChecked(baseUrl: string, created: Created[]): Promise<void> {
  let waiting = [...created];
  while (waiting.length > 0) {
    const still: Created[] = [];
    await runClosedLoop(waiting.length, CHECK_POLLS_IN_FLIGHT, async (index) => {
      const assessment = waiting[index];
      const response = await fetch(`${baseUrl}/v1/network-assessments/${assessment.id}`, { headers: { authorization: `Bearer ${assessment.key}` } });
      const body = (await response.json()) as { findings?: unknown };
      if (!Array.isArray(body.findings)) still.push(assessment);
    });
    waiting = still;
    if (waiting.length > 0) await sleep(1_000);
  }
}

async function measure(api: ReviewerRequests, created: Created[], opened: Set<string>, samples: number, fillSeconds: number): Promise<ReviewScaleRun> {
  const pick = (from: readonly string[]) => from[Math.floor(Math.random() * from.length)];
  const ids = created.map(({ id }) => id);
  const unopened = shuffled(ids.filter((id) => !opened.has(id))).slice(0, samples);
  const firstOpen: number[] = [];
  for (const id of unopened) {
    firstOpen.push(await api.time('GET', `assessments/${id}`));
    opened.add(id);
  }
  const refresh: number[] = [];
  for (let sample = 0; sample < samples; sample++) refresh.push(await api.time('GET', `assessments/${pick([...opened])}`));
  const claim: number[] = [];
  const release: number[] = [];
  for (let sample = 0; sample < samples; sample++) {
    const id = pick(ids);
    claim.push(await api.time('POST', `assessments/${id}/claim`));
    release.push(await api.time('POST', `assessments/${id}/release`));
  }
  const pages: number[] = [];
  let cursor: string | null = null;
  while (pages.length < samples) {
    const started = performance.now();
    const page = await api.queuePage(cursor);
    pages.push(performance.now() - started);
    cursor = page.next_cursor;
  }
  return {
    open: created.length,
    fillSeconds,
    firstOpenMs: distribution(firstOpen),
    refreshMs: distribution(refresh),
    claimMs: distribution(claim),
    releaseMs: distribution(release),
    queuePageMs: distribution(pages),
    failures: api.failures,
  };
}

/** The review operations as the console and the reviewer CLI send them, timed, counting any answer but 200. */
class ReviewerRequests {
  failures = 0;

  constructor(
    private readonly baseUrl: string,
    private readonly credential: string,
  ) {}

  async time(method: 'GET' | 'POST', path: string): Promise<number> {
    const started = performance.now();
    const response = await fetch(`${this.baseUrl}/v1/review/${path}`, { method, headers: { authorization: `Bearer ${this.credential}` } });
    await response.arrayBuffer();
    const elapsed = performance.now() - started;
    if (response.status !== 200) this.failures++;
    return elapsed;
  }

  async queuePage(cursor: string | null): Promise<{ next_cursor: string | null }> {
    const query = new URLSearchParams({ limit: String(QUEUE_PAGE_SIZE), ...(cursor ? { cursor } : {}) });
    const response = await fetch(`${this.baseUrl}/v1/review/assessments?${query}`, { headers: { authorization: `Bearer ${this.credential}` } });
    const body = (await response.json()) as { next_cursor?: string | null };
    if (response.status !== 200) this.failures++;
    return { next_cursor: body.next_cursor ?? null };
  }
}

function shuffled<T>(items: readonly T[]): T[] {
  const copy = [...items];
  for (let index = copy.length - 1; index > 0; index--) {
    const other = Math.floor(Math.random() * (index + 1));
    [copy[index], copy[other]] = [copy[other], copy[index]];
  }
  return copy;
}
