import { Context } from '@temporalio/activity';
import { Client, WorkflowExecutionAlreadyStartedError } from '@temporalio/client';
import type { Priority } from '@temporalio/common';
import pLimit from 'p-limit';
import { taskIdForBatchItem } from '../../src/common/ids/batch-ids';
import type { KeyEnvironment } from '../../src/common/keys/api-key';
import { requestHash } from '../../src/common/request-hash';
import type { BatchItem, BatchItemStore } from '../../src/common/storage/batch-item-store';
import { aiTaskStart } from '../../src/common/tasks/ai-task-start';
import { batchTaskClauses, countBatchTasks } from '../../src/common/visibility/batch-task-counts';
import { spareTasks, type SpareCapacity } from '../../src/common/visibility/spare-capacity';
import { equals, visibilityQuery } from '../../src/common/visibility/visibility-query';
import { AI_TASK_WORKFLOW_TYPE, BATCH_ADMISSION_PAGE, BATCH_PACED_ADMISSION_INTERVAL_MS, taskWorkflowId, type BatchActivities, type BatchAdmission, type BatchRef, type TaskPriority } from '../../src/contract';
import { othersStartedSince } from './organisation-starts';

export interface BatchActivityDependencies {
  store: BatchItemStore;
  /** The task queue the tasks run on, and the organisation's lane for their priority, as a create starts them. */
  taskQueue: string;
  priorityFor: (organizationId: string, priority: TaskPriority) => Priority;
  environmentOf: (namespace: string) => KeyEnvironment;
  /** The other environment's namespace, whose work shares the machine (ADMISSION_ALONE_IN_FLIGHT). */
  otherNamespace: (namespace: string) => string;
  /** Tasks running in the environment up to which a lone organisation's batch admits past its pace; 0: never. */
  inFlightWindow: number;
}

// Calls to Temporal in flight at once: enough to admit a page in well under a second, few enough not to crowd the frontend.
const CONCURRENT_STARTS = 16;
// How long one admission goes on lending to an organisation alone, and how often it looks again:
// short enough that a cancel (which waits for the admission) and a newcomer are served within seconds.
const LENDING_SPELL_MS = 10_000;
const LENDING_LOOK_INTERVAL_MS = 200;
// The workflow admits once a second (BATCH_PACED_ADMISSION_INTERVAL_MS); its pace is a token
// bucket, so a longer admission is made up by more items in the next.
const PACED_SPREAD_MS = 600;

export function createBatchActivities({ store, taskQueue, priorityFor, environmentOf, otherNamespace, inFlightWindow }: BatchActivityDependencies): BatchActivities {
  const staged = (batch: BatchRef) => ({ ...batch, environment: environmentOf(Context.current().info.namespace) });
  return {
    /**
     * The paced items first; then, while the organisation is alone, more as the stack makes room
     * (spareTasks), for up to 10 s: the workflow's next admission is a second after this one ends,
     * so a lone batch keeps the stack busy for ten seconds in eleven.
     */
    async admitBatchItems(admission: BatchAdmission): Promise<number> {
      const ref = staged(admission);
      // A batch admitting less than a page is paced (an unpaced one always asks for a page).
      const paced = admission.limit < BATCH_ADMISSION_PAGE;
      // One rate per organisation: the pace is its create rate, so what its creates and its other
      // batches took of it while this admission's items accrued this batch does not get (or each
      // had it whole). Counted over the whole time they accrued, not the last second only: on a
      // loaded machine admissions come further apart than a second, and three batches sharing one
      // a second admitted 33 items in 16 s.
      const own = paced ? admission.limit - (await othersSinceLastAdmission(admission)) : admission.limit;
      // Paced items are started spread over 0.6 s, ahead of the 1 s to the next admission: ten
      // started at once took the CPU together, and a neighbour's task arriving then waited for them.
      let next = own > 0 ? await admitFrom(admission, ref, admission.fromIndex, own, paced ? PACED_SPREAD_MS : 0) : admission.fromIndex;
      // Nothing staged from here on: an earlier attempt admitted the rest.
      if (next === undefined) return admission.total;
      if (inFlightWindow === 0 || !paced) return next;
      const lendingEnds = Date.now() + LENDING_SPELL_MS;
      // Visibility shows a start a moment after it: the last items admitted are taken as running.
      let unseen = next - admission.fromIndex;
      while (next < admission.total && Date.now() < lendingEnds) {
        const spare = await spareCapacity(admission);
        if (!spare.alone) break;
        const room = Math.min(BATCH_ADMISSION_PAGE, spare.room - unseen);
        unseen = 0;
        if (room > 0) {
          const admitted = await admitFrom(admission, ref, next, room);
          if (admitted === undefined) return admission.total;
          unseen = admitted - next;
          next = admitted;
        }
        Context.current().heartbeat();
        await Context.current().sleep(LENDING_LOOK_INTERVAL_MS);
      }
      return next;
    },

    countBatchTasks({ organizationId, batchId }: BatchRef) {
      return countBatchTasks(Context.current().client, organizationId, batchId);
    },

    withdrawBatchItems(batch: BatchRef): Promise<number> {
      return store.withdraw(staged(batch));
    },

    async cancelBatchTasks({ organizationId, batchId }: BatchRef): Promise<number> {
      const { client } = Context.current();
      const query = visibilityQuery([...batchTaskClauses(organizationId, batchId), equals('ExecutionStatus', 'Running')]);
      const running: string[] = [];
      for await (const run of client.workflow.list({ query })) running.push(run.workflowId);
      const limit = pLimit(CONCURRENT_STARTS);
      await Promise.all(running.map((workflowId) => limit(() => client.workflow.getHandle(workflowId).cancel())));
      return running.length;
    },
  };

  /** Starts the staged items from `fromIndex` on (at most `count`) and unstages them; the index after the last, or undefined when none was staged. */
  async function admitFrom(admission: BatchAdmission, ref: ReturnType<typeof staged>, fromIndex: number, count: number, spreadMs = 0): Promise<number | undefined> {
    const items = await store.page(ref, fromIndex, count);
    if (items.length === 0) return undefined;
    if (spreadMs > 0) {
      for (const [index, item] of items.entries()) {
        if (index > 0) await Context.current().sleep(spreadMs / items.length);
        await startItemTask(admission, item);
      }
    } else {
      const limit = pLimit(CONCURRENT_STARTS);
      await Promise.all(items.map((item) => limit(() => startItemTask(admission, item))));
    }
    const next = items[items.length - 1].index + 1;
    await store.unstage(ref, next);
    return next;
  }

  /** A count that fails takes nothing: the pace stays the organisation's guarantee. */
  function othersSinceLastAdmission(admission: BatchAdmission): Promise<number> {
    const since = new Date(admission.accruedSince ?? Date.now() - BATCH_PACED_ADMISSION_INTERVAL_MS);
    return othersStartedSince(Context.current().client.workflow, admission.organizationId, admission.batchId, since).catch(() => 0);
  }

  /** Whether the batch's organisation is alone, and the room under the in-flight window; a look that fails lends nothing. */
  function spareCapacity(admission: BatchAdmission): Promise<SpareCapacity> {
    const { client, info } = Context.current();
    const other = new Client({ connection: client.connection, namespace: otherNamespace(info.namespace) }).workflow;
    return spareTasks({ organizationId: admission.organizationId, own: client.workflow, other, inFlightWindow, now: new Date() }).catch(() => ({ alone: false, room: 0 }));
  }

  /** Starts the item's task as a create would; a task already started (a retried admission) is left be. */
  async function startItemTask(admission: BatchAdmission, item: BatchItem): Promise<void> {
    const { organizationId, batchId } = admission;
    const taskId = taskIdForBatchItem(organizationId, batchId, item.key);
    const start = aiTaskStart({
      taskId,
      organizationId,
      taskType: admission.taskType,
      input: item.input,
      model: admission.model,
      priority: admission.priority,
      deadline: admission.deadline,
      createdAt: new Date(admission.createdAt),
      requestHash: requestHash({ task_type: admission.taskType, input: item.input }),
      batch: { id: batchId, itemKey: item.key },
    });
    Context.current().heartbeat();
    await Context.current()
      .client.workflow.start(AI_TASK_WORKFLOW_TYPE, {
        args: start.args,
        workflowId: taskWorkflowId(organizationId, taskId),
        taskQueue,
        memo: { ...start.memo },
        typedSearchAttributes: start.typedSearchAttributes,
        ...(start.workflowExecutionTimeout === undefined ? {} : { workflowExecutionTimeout: start.workflowExecutionTimeout }),
        priority: priorityFor(organizationId, admission.priority),
        workflowIdReusePolicy: 'REJECT_DUPLICATE',
      })
      .catch((error: unknown) => {
        if (!(error instanceof WorkflowExecutionAlreadyStartedError)) throw error;
      });
  }
}
