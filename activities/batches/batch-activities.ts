import { Context } from '@temporalio/activity';
import { WorkflowExecutionAlreadyStartedError } from '@temporalio/client';
import type { Priority } from '@temporalio/common';
import pLimit from 'p-limit';
import { taskIdForBatchItem } from '../../src/common/ids/batch-ids';
import type { KeyEnvironment } from '../../src/common/keys/api-key';
import { requestHash } from '../../src/common/request-hash';
import type { BatchItem, BatchItemStore } from '../../src/common/storage/batch-item-store';
import { aiTaskStart } from '../../src/common/tasks/ai-task-start';
import { batchTaskClauses, countBatchTasks } from '../../src/common/visibility/batch-task-counts';
import { equals, visibilityQuery } from '../../src/common/visibility/visibility-query';
import { AI_TASK_WORKFLOW_TYPE, taskWorkflowId, type BatchActivities, type BatchAdmission, type BatchRef, type TaskPriority } from '../../src/contract';

export interface BatchActivityDependencies {
  store: BatchItemStore;
  /** The task queue the tasks run on, and the organisation's lane for their priority, as a create starts them. */
  taskQueue: string;
  priorityFor: (organizationId: string, priority: TaskPriority) => Priority;
  environmentOf: (namespace: string) => KeyEnvironment;
}

// Calls to Temporal in flight at once: enough to admit a page in well under a second, few enough not to crowd the frontend.
const CONCURRENT_STARTS = 16;

export function createBatchActivities({ store, taskQueue, priorityFor, environmentOf }: BatchActivityDependencies): BatchActivities {
  const staged = (batch: BatchRef) => ({ ...batch, environment: environmentOf(Context.current().info.namespace) });
  return {
    async admitBatchItems(admission: BatchAdmission): Promise<number> {
      const ref = staged(admission);
      const items = await store.page(ref, admission.fromIndex, admission.limit);
      // Nothing staged from here on: an earlier attempt admitted the rest.
      if (items.length === 0) return admission.total;
      const limit = pLimit(CONCURRENT_STARTS);
      await Promise.all(items.map((item) => limit(() => startItemTask(admission, item))));
      const next = items[items.length - 1].index + 1;
      await store.unstage(ref, next);
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
