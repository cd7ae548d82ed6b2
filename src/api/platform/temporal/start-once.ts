import { WorkflowExecutionAlreadyStartedError, type WorkflowStartOptions } from '@temporalio/client';
import type { Workflow } from '@temporalio/common';
import type { TaskPriority } from '../../../contract';
import { ApiError } from '../http/api-error';
import type { Caller } from '../keys/key-authenticator';
import type { TemporalClients } from './temporal-clients';

/** A kind of resource that is one workflow, created at most once per (organisation, Idempotency-Key). */
export interface OnceStartedKind {
  /** Names the resource in the answer given while its workflow is being created: "task", "assessment". */
  noun: string;
  workflowType: string;
  newId(): string;
  /** Derived from the key, so every retry of a create targets the same workflow id. */
  idForIdempotencyKey(organizationId: string, idempotencyKey: string): string;
  workflowId(organizationId: string, id: string): string;
}

/** What the workflow's memo must hold for a retry to be told from a reuse of the key. */
export interface IdempotentMemo {
  request_hash: string;
}

export interface StartOnceRequest<W extends Workflow, Resource> {
  caller: Caller;
  idempotencyKey: string | undefined;
  memo: IdempotentMemo;
  /** The workflow's arguments and search attributes for the resource id chosen, and any timeout it closes at. */
  options: (id: string) => Pick<WorkflowStartOptions<W>, 'args' | 'typedSearchAttributes' | 'workflowExecutionTimeout'>;
  /** The organisation's lane the workflow is dispatched in; absent, `normal`. */
  priority?: TaskPriority;
  /** The resource already started under an id, as GET shows it, with its memo. */
  readExisting: (id: string) => Promise<{ resource: Resource; memo: IdempotentMemo } | undefined>;
}

export type StartOnceResult<Resource> = { replayed: false; id: string; runId: string } | { replayed: true; id: string; resource: Resource };

/**
 * Starts the resource's workflow, or, when a create with the same Idempotency-Key already started
 * it, answers with that resource: the same request replays it, a different one is refused (422).
 */
export async function startOnce<W extends Workflow, Resource>(
  temporal: TemporalClients,
  kind: OnceStartedKind,
  request: StartOnceRequest<W, Resource>,
): Promise<StartOnceResult<Resource>> {
  const { caller, idempotencyKey, memo } = request;
  const id = idempotencyKey ? kind.idForIdempotencyKey(caller.organizationId, idempotencyKey) : kind.newId();
  try {
    const handle = await temporal.withDeadline(() =>
      temporal.workflows(caller.environment).start<W>(kind.workflowType, {
        ...request.options(id),
        taskQueue: temporal.taskQueue,
        priority: temporal.priorityFor(caller.organizationId, request.priority),
        workflowId: kind.workflowId(caller.organizationId, id),
        // Rejecting a duplicate id even after the first run closed is what makes a retry with the
        // same Idempotency-Key return the first resource for as long as the namespace retains it.
        workflowIdReusePolicy: 'REJECT_DUPLICATE',
        memo: { ...memo },
        // TypeScript cannot resolve the conditional `args` of a generic W; options() typed them for the caller's W.
      } as WorkflowStartOptions<W>),
    );
    return { replayed: false, id, runId: handle.firstExecutionRunId };
  } catch (error) {
    if (!(error instanceof WorkflowExecutionAlreadyStartedError)) throw error;
  }
  const existing = await request.readExisting(id);
  if (!existing) throw new ApiError(503, 'SERVICE_UNAVAILABLE', `The ${kind.noun} is being created; retry shortly`, { 'retry-after': '1' });
  if (existing.memo.request_hash !== memo.request_hash) {
    throw new ApiError(422, 'IDEMPOTENCY_KEY_REUSED', 'This Idempotency-Key was already used with a different request body');
  }
  return { replayed: true, id, resource: existing.resource };
}
