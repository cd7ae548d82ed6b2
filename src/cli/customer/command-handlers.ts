import { randomUUID } from 'node:crypto';
import { type Assessment, type AssayClient, type CreateAssessmentRequest, type PollOptions, type Task, TaskFailedError, type TaskProgress, type UsageReport } from '../../sdk';
import { CliUsageError } from '../exit-codes';
import { parseBatchItems } from './batch-input';
import { batchProgress } from './batch-progress';
import { checkEveryItemSucceeded, inItemOrder, resultLine } from './batch-results';
import type { CustomerCommandDeps } from './command-deps';
import { readJsonObjectFile, readTextInput } from './input';
import { startSpinner } from './spinner';
import { createUnderKey, rerunCommandLine } from './unconfirmed-create';

// The largest page a list serves: a big batch's results in the fewest requests.
const TASK_PAGE_SIZE = 100;

export interface ConnectionFlags {
  baseUrl?: string;
}

export interface CreateFlags extends ConnectionFlags {
  idempotencyKey?: string;
}

export interface WaitFlags extends ConnectionFlags {
  /** Poll ceiling in seconds. */
  timeout?: number;
  maxPolls?: number;
}

export interface SummarizeFlags extends WaitFlags, CreateFlags {
  json?: boolean;
  maxSentences?: number;
  model?: string;
  /** A JSONL file whose lines are summarized as one batch. */
  batch?: string;
}

export interface GetFlags extends WaitFlags {
  wait?: boolean;
}

export async function summarizeCommand(file: string | undefined, flags: SummarizeFlags, deps: CustomerCommandDeps): Promise<void> {
  const text = await readTextInput(file, deps);
  const client = clientFor(flags, deps);
  const input = flags.maxSentences === undefined ? { text } : { text, max_sentences: flags.maxSentences };
  const fromStdin = file === undefined || file === '-';
  const rerun = {
    resource: 'task',
    command: (key: string) => [
      'assay',
      'summarize',
      '--idempotency-key',
      key,
      ...summarizeOptionWords(flags),
      ...connectionWords(flags),
      ...(flags.json ? ['--json'] : []),
      file ?? '-',
    ],
    note: fromStdin ? 'with the same text on stdin' : undefined,
  };
  try {
    const task = await withSpinner(deps, 'Summarizing', statusAndSteps, async (onPoll) => {
      const poll = pollOptionsFrom(flags);
      // Created and awaited apart, so a create left unanswered is told from a wait that ran out; the
      // create is held as a poll would be, so a task done within the wait takes one request.
      const created = await createUnderKey(flags.idempotencyKey, rerun, (idempotencyKey) =>
        client.createTask(
          { task_type: 'summarize', input, ...(flags.model === undefined ? {} : { model: flags.model }) },
          { idempotencyKey, waitSeconds: client.heldCreateSeconds(poll) },
        ),
      );
      return client.waitForTask(created, { poll, onPoll });
    });
    deps.stdout.write(flags.json ? toJson(task) : `${task.output.summary}\n`);
  } catch (error) {
    if (flags.json && error instanceof TaskFailedError) deps.stdout.write(toJson(error.task));
    throw error;
  }
}

/**
 * Summarizes each line of a JSONL file as an item of one batch, with its progress on stderr, and
 * once the batch has ended prints one JSON line per item's task, in the file's order. Unless every
 * item succeeded it ends as TaskFailed. The batch is named on stderr first: Ctrl-C ends the wait,
 * not the batch, and the command printed there waits for it again.
 */
export async function summarizeBatchCommand(file: string, textFile: string | undefined, flags: SummarizeFlags, deps: CustomerCommandDeps): Promise<void> {
  if (textFile !== undefined) throw new CliUsageError(`--batch reads the texts from ${file}; name no other file`);
  const items = parseBatchItems(await readTextInput(file, deps), file === '-' ? 'stdin' : file, flags.maxSentences);
  const client = clientFor(flags, deps);
  const rerun = {
    resource: 'batch',
    command: (key: string) => ['assay', 'summarize', '--batch', file, '--idempotency-key', key, ...summarizeOptionWords(flags), ...connectionWords(flags)],
    note: file === '-' ? 'with the same lines on stdin' : undefined,
  };
  const idempotencyKey = flags.idempotencyKey ?? randomUUID();
  const created = await createUnderKey(idempotencyKey, rerun, (key) =>
    client.createBatch({ task_type: 'summarize', items, ...(flags.model === undefined ? {} : { model: flags.model }) }, { idempotencyKey: key }),
  );
  deps.stderr.write(`Batch ${created.id} (${items.length} items). Ctrl-C stops the wait, not the batch; to wait for it again, run:\n  ${rerunCommandLine(rerun, idempotencyKey)}\n`);
  const ended = await withSpinner(deps, `Batch ${created.id}`, batchProgress, (onPoll) => client.waitForBatch(created, { poll: pollOptionsFrom(flags), onPoll }));
  const tasks: Task[] = [];
  for await (const page of client.batchTaskPages(ended.id, { limit: TASK_PAGE_SIZE })) tasks.push(...page.data);
  const lines = inItemOrder(tasks, items).map(resultLine);
  for (const line of lines) deps.stdout.write(`${JSON.stringify(line)}\n`);
  checkEveryItemSucceeded(ended, lines);
}

/** Prints the task as JSON; with --wait, once it is final. A failed task ends as TaskFailed. */
export async function getTaskCommand(id: string, flags: GetFlags, deps: CustomerCommandDeps): Promise<void> {
  const client = clientFor(flags, deps);
  let task: Task = await client.getTask(id);
  if (flags.wait) {
    task = await withSpinner(deps, `Waiting for ${id}`, statusAndSteps, (onPoll) =>
      client.waitForTask(task, { poll: pollOptionsFrom(flags), onPoll }).catch((error: unknown) => {
        if (error instanceof TaskFailedError) return error.task;
        throw error;
      }),
    );
  }
  deps.stdout.write(toJson(task));
  if (task.status === 'failed') throw new TaskFailedError(task);
}

export async function submitAssessmentCommand(file: string, flags: CreateFlags, deps: CustomerCommandDeps): Promise<void> {
  const request = await readJsonObjectFile(file, deps);
  const client = clientFor(flags, deps);
  const rerun = {
    resource: 'assessment',
    command: (key: string) => ['assay', 'assessments', 'submit', '--idempotency-key', key, ...connectionWords(flags), file],
  };
  // The service validates the graph; the CLI sends the file as written so both report the same problems.
  const assessment = await createUnderKey(flags.idempotencyKey, rerun, (idempotencyKey) =>
    client.createAssessment(request as CreateAssessmentRequest, { idempotencyKey }),
  );
  deps.stdout.write(toJson(assessment));
}

/** Prints the assessment as JSON; with --wait, once it is completed. */
export async function getAssessmentCommand(id: string, flags: GetFlags, deps: CustomerCommandDeps): Promise<void> {
  const client = clientFor(flags, deps);
  let assessment: Assessment = await client.getAssessment(id);
  if (flags.wait) {
    assessment = await withSpinner(deps, `Waiting for ${id}`, statusAndSteps, (onPoll) =>
      client.waitForAssessment(assessment, { poll: pollOptionsFrom(flags), onPoll }),
    );
  }
  deps.stdout.write(toJson(assessment));
}

export interface UsageFlags extends ConnectionFlags {
  from?: string;
  to?: string;
}

/** Prints the organisation's usage per day and model as JSON. */
export async function usageCommand(flags: UsageFlags, deps: CustomerCommandDeps): Promise<void> {
  deps.stdout.write(toJson(await clientFor(flags, deps).getUsage({ from: flags.from, to: flags.to })));
}

function clientFor(flags: ConnectionFlags, deps: CustomerCommandDeps): AssayClient {
  return deps.createClient({ baseUrl: flags.baseUrl ?? deps.env.ASSAY_BASE_URL, apiKey: deps.env.ASSAY_API_KEY });
}

/** --base-url as given; one taken from ASSAY_BASE_URL is found there again by the re-run. */
function connectionWords(flags: ConnectionFlags): string[] {
  return flags.baseUrl === undefined ? [] : ['--base-url', flags.baseUrl];
}

/** --max-sentences and --model as given. */
function summarizeOptionWords(flags: SummarizeFlags): string[] {
  return [...(flags.maxSentences === undefined ? [] : ['--max-sentences', String(flags.maxSentences)]), ...(flags.model === undefined ? [] : ['--model', flags.model])];
}

function pollOptionsFrom(flags: WaitFlags): Partial<PollOptions> {
  return { timeoutMs: flags.timeout === undefined ? undefined : flags.timeout * 1000, maxPolls: flags.maxPolls };
}

/** Runs `run` beside a spinner that shows each polled resource as `describe` puts it. */
async function withSpinner<T, R>(deps: CustomerCommandDeps, label: string, describe: (resource: R) => string, run: (onPoll: (resource: R) => void) => Promise<T>): Promise<T> {
  const spinner = startSpinner(deps.stderr, label);
  try {
    return await run((resource) => spinner.update(describe(resource)));
  } finally {
    spinner.stop();
  }
}

// A task on a remote model runs in steps; how far it got is the news between its status changes.
function statusAndSteps({ status, progress }: { status: string; progress?: TaskProgress }): string {
  return progress ? `${status}, step ${progress.completed_steps} of ${progress.total_steps}` : status;
}

function toJson(resource: Task | Assessment | UsageReport): string {
  return `${JSON.stringify(resource, null, 2)}\n`;
}
