import { type Assessment, type AssayClient, type CreateAssessmentRequest, type PollOptions, type Task, TaskFailedError } from '../../sdk';
import type { CustomerCommandDeps } from './command-deps';
import { readJsonObjectFile, readTextInput } from './input';
import { startSpinner } from './spinner';

export interface ConnectionFlags {
  baseUrl?: string;
}

export interface WaitFlags extends ConnectionFlags {
  /** Poll ceiling in seconds. */
  timeout?: number;
  maxPolls?: number;
}

export interface SummarizeFlags extends WaitFlags {
  json?: boolean;
  maxSentences?: number;
}

export interface GetFlags extends WaitFlags {
  wait?: boolean;
}

export async function summarizeCommand(file: string | undefined, flags: SummarizeFlags, deps: CustomerCommandDeps): Promise<void> {
  const text = await readTextInput(file, deps);
  const client = clientFor(flags, deps);
  try {
    const task = await withSpinner(deps, 'Summarizing', (onPoll) =>
      client.summarize(text, { maxSentences: flags.maxSentences, poll: pollOptionsFrom(flags), onPoll }),
    );
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

export async function submitAssessmentCommand(file: string, flags: ConnectionFlags, deps: CustomerCommandDeps): Promise<void> {
  const request = await readJsonObjectFile(file, deps);
  const client = clientFor(flags, deps);
  // The service validates the graph; the CLI sends the file as written so both report the same problems.
  const assessment = await client.createAssessment(request as CreateAssessmentRequest);
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

function clientFor(flags: ConnectionFlags, deps: CustomerCommandDeps): AssayClient {
  return deps.createClient({ baseUrl: flags.baseUrl ?? deps.env.ASSAY_BASE_URL, apiKey: deps.env.ASSAY_API_KEY });
}

function pollOptionsFrom(flags: WaitFlags): Partial<PollOptions> {
  return { timeoutMs: flags.timeout === undefined ? undefined : flags.timeout * 1000, maxPolls: flags.maxPolls };
}

async function withSpinner<T>(
  deps: CustomerCommandDeps,
  label: string,
  run: (onPoll: (resource: { status: string }) => void) => Promise<T>,
): Promise<T> {
  const spinner = startSpinner(deps.stderr, label);
  try {
    return await run((resource) => spinner.update(resource.status));
  } finally {
    spinner.stop();
  }
}

function toJson(resource: Task | Assessment): string {
  return `${JSON.stringify(resource, null, 2)}\n`;
}
