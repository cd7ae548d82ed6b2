// Models: what a task's workflow knows of the model it runs on, the activities that call a remote
// model, and where those activities run.

/** The built-in, in-process summariser: no provider, no limits, no chunks. */
export const EXTRACTIVE_MODEL = 'extractive';

/** The smallest context window Assay plans for: a declaration may not name less, and a task fails on a model that proves to have less. */
export const MIN_CONTEXT_TOKENS = 512;

/**
 * The model a task runs on, fixed in its workflow input when it is created: the document's chunk
 * plan is computed from these figures, so a later change of configuration never changes the plan
 * of a task already running (which replay would reject).
 */
export type TaskModel =
  | { name: typeof EXTRACTIVE_MODEL; kind: 'extractive' }
  | {
      name: string;
      kind: 'remote';
      /** The model's context window, in tokens. */
      contextTokens: number;
      /** The most a single answer may use, in tokens; reserved in every request. */
      maxOutputTokens: number;
      /** How many of this task's calls may be in flight at once (the model's deployment-wide limit). */
      concurrency: number;
      /** How long the task waits out a provider that is down before it fails PROVIDER_UNAVAILABLE. */
      unavailableWaitMs: number;
    };

export type RemoteTaskModel = Extract<TaskModel, { kind: 'remote' }>;

/**
 * Each remote model's calls run on a task queue of their own, beside the task queue of the
 * workflows, so every worker that serves it shares one dispatch and one limit.
 */
export function modelTaskQueue(taskQueue: string, modelName: string): string {
  return `${taskQueue}/model/${modelName}`;
}

/** What one call asks of the model: a part of the document, or the summaries of parts to combine. */
export type ModelCallKind = 'chunk' | 'combine';

export interface ModelCallInput {
  model: string;
  kind: ModelCallKind;
  text: string;
  /** Only on the call whose answer is the task's summary. */
  max_sentences?: number;
  maxOutputTokens: number;
}

/** Tokens as the provider reported them (absent when it reports none). */
export interface ModelUsage {
  input_tokens: number;
  output_tokens: number;
}

export interface ModelCallResult {
  summary: string;
  usage?: ModelUsage;
}

/** The activity each remote model's task queue serves. */
export interface ModelActivities {
  callModel(input: ModelCallInput): Promise<ModelCallResult>;
}

/**
 * The failure type of a call the provider refused as longer than the model's context window: the
 * task plans what is left in smaller steps instead of failing (never a client-facing code).
 */
export const CONTEXT_TOO_SMALL = 'CONTEXT_TOO_SMALL';

/** The details of a CONTEXT_TOO_SMALL failure. */
export interface ContextTooSmallDetails {
  /** The window the provider said the model has, when its answer said it. */
  contextTokens?: number;
}

/**
 * What the worker process has learned of each model's real context window, in memory: local
 * activities of the task workflow, which reads it before it plans and teaches it when a call
 * proved the window smaller.
 */
export interface ContextWindowActivities {
  /** The smallest window learned for the model since the worker started, or null. */
  learnedContextTokens(modelName: string): Promise<number | null>;
  rememberContextTokens(modelName: string, contextTokens: number): Promise<void>;
}

import type { SummarizeInput, TaskUsage } from './wire/task';
import type { WebhookSubscriberQuery } from './webhook-events';

export type { TaskProgress, TaskUsage } from './wire/task';

// How a document is sized against a model's context. Token counts are estimated from characters
// (no tokeniser of every model ships with Assay): English prose runs about four characters a token
// in current tokenisers, so three per token over-counts and keeps a chunk inside the context.
export const CHARS_PER_TOKEN_ESTIMATE = 3;
/** A partial summary is clipped to this many characters per output token before it is combined. */
export const SUMMARY_CHARS_PER_TOKEN = 4;
/** Tokens kept for the instruction and the chat template around the text. */
export const PROMPT_RESERVE_TOKENS = 64;

/**
 * The largest answer a model of this context may be asked for: two answers at their longest must
 * fit in one combine call, with the prompt and a third answer, or a long document never combines.
 */
export function largestOutputTokens(contextTokens: number): number {
  // In characters: two answers, the blank line between them (2) and the third answer's tokens.
  return Math.floor(((contextTokens - PROMPT_RESERVE_TOKENS) * CHARS_PER_TOKEN_ESTIMATE - 2) / (2 * SUMMARY_CHARS_PER_TOKEN + CHARS_PER_TOKEN_ESTIMATE));
}

/** What the task workflow asks to be recorded once it has finished; the cost is the worker's to add. */
export interface TaskUsageRecord {
  organizationId: string;
  taskId: string;
  usage: Omit<TaskUsage, 'cost'>;
}

/** The recorded usage's cost (from the model's prices when it was first recorded), or null without a price. */
export interface RecordedUsage {
  cost: number | null;
}

/**
 * Each finished task's usage, recorded once per task whatever retries and replays happen, in the
 * database the API reads daily totals from; a local activity of the task workflow.
 */
export interface UsageActivities {
  /** Replay only: tasks started before `usage-with-subscribers` (docs/patch-policy.md) record their usage with this one. */
  recordTaskUsage(record: TaskUsageRecord): Promise<RecordedUsage>;
}

/** The recorded usage, and whether anyone subscribes to the task's completion event; absent when that could not be read. */
export interface RecordedUsageAndSubscribers extends RecordedUsage {
  subscribed?: boolean;
}

/**
 * The end of a task with a model in one local activity instead of two: its usage recorded, as
 * recordTaskUsage, and its completion event's subscribers looked up, as hasWebhookSubscribers, a
 * moment before the task closes (docs/benchmarks.md, "What limits each figure", step 1).
 */
export interface TaskCompletionActivities {
  recordTaskUsageAndCheckSubscribers(record: TaskUsageRecord, query: WebhookSubscriberQuery): Promise<RecordedUsageAndSubscribers>;
}

/** A task's usage record before its output exists: all of it but the output's length, which the summary gives. */
export interface UsageRecordBeforeOutput {
  organizationId: string;
  taskId: string;
  usage: Omit<TaskUsage, 'cost' | 'output_characters'>;
}

/** The built-in model's summary, and its usage recorded with its subscribers looked up, when that could be done at once. */
export interface SummaryAndRecordedUsage {
  summary: string;
  recorded?: RecordedUsageAndSubscribers;
}

/**
 * A task on the built-in model in one local activity instead of two: its summary, as
 * summarizeExtractive, then its end, as recordTaskUsageAndCheckSubscribers, tried once
 * (docs/benchmarks.md, "What limits each figure", step 1).
 */
export interface ExtractiveTaskActivities {
  summarizeExtractiveAndRecordUsage(input: SummarizeInput, record: UsageRecordBeforeOutput, query: WebhookSubscriberQuery): Promise<SummaryAndRecordedUsage>;
}
