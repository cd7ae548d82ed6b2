import { type Assessment, type AssayClient, type CreateAssessmentRequest, type PollOptions, type Task, TaskFailedError, type TaskProgress, type UsageReport } from '../../sdk';
import type { CustomerCommandDeps } from './command-deps';
import { readJsonObjectFile, readTextInput } from './input';
import { startSpinner } from './spinner';
import { createUnderKey } from './unconfirmed-create';

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
      ...(flags.maxSentences === undefined ? [] : ['--max-sentences', String(flags.maxSentences)]),
      ...(flags.model === undefined ? [] : ['--model', flags.model]),
      ...connectionWords(flags),
      ...(flags.json ? ['--json'] : []),
      file ?? '-',
    ],
    note: fromStdin ? 'with the same text on stdin' : undefined,
  };
  try {
    const task = await withSpinner(deps, 'Summarizing', async (onPoll) => {
      // Created and awaited apart, so a create left unanswered is told from a wait that ran out.
      const created = await createUnderKey(flags.idempotencyKey, rerun, (idempotencyKey) =>
        client.createTask({ task_type: 'summarize', input, ...(flags.model === undefined ? {} : { model: flags.model }) }, { idempotencyKey }),
      );
      return client.waitForTask(created, { poll: pollOptionsFrom(flags), onPoll });
    });
    deps.stdout.write(flags.json ? toJson(task) : `${task.output.summary}\n`);
  } catch (error) {
    if (flags.json && error instanceof TaskFailedError) deps.stdout.write(toJson(error.task));
    throw error;
  }
}

/** Prints the task as JSON; with --wait, once it is final. A failed task ends as TaskFailed. */
export async function getTaskCommand(id: string, flags: GetFlags, deps: CustomerCommandDeps): Promise<void> {
  const client = clientFor(flags, deps);
  let task: Task = await client.getTask(id);
  if (flags.wait) {
    task = await withSpinner(deps, `Waiting for ${id}`, (onPoll) =>
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
    assessment = await withSpinner(deps, `Waiting for ${id}`, (onPoll) =>
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

function pollOptionsFrom(flags: WaitFlags): Partial<PollOptions> {
  return { timeoutMs: flags.timeout === undefined ? undefined : flags.timeout * 1000, maxPolls: flags.maxPolls };
}

async function withSpinner<T>(
  deps: CustomerCommandDeps,
  label: string,
  run: (onPoll: (resource: { status: string; progress?: TaskProgress }) => void) => Promise<T>,
): Promise<T> {
  const spinner = startSpinner(deps.stderr, label);
  try {
    // A task on a remote model runs in steps; how far it got is the news between its status changes.
    return await run(({ status, progress }) => spinner.update(progress ? `${status}, step ${progress.completed_steps} of ${progress.total_steps}` : status));
  } finally {
    spinner.stop();
  }
}

function toJson(resource: Task | Assessment | UsageReport): string {
  return `${JSON.stringify(resource, null, 2)}\n`;
}
