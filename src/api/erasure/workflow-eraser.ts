import { Injectable } from '@nestjs/common';
import type { KeyEnvironment } from '../../common/keys/api-key';
import { WebhookStore } from '../../common/storage/webhook-store';
import { isGrpcNotFound } from '../../common/temporal/grpc-status';
import { webhookEventWorkflowId } from '../../contract';
import { quote } from '../../common/visibility/visibility-query';
import { TemporalClients } from '../temporal/temporal-clients';

/** What erasing one task or assessment removes. */
export interface ErasureTarget {
  environment: KeyEnvironment;
  organizationId: string;
  workflowId: string;
  /** Every event id the resource's outcomes can have (outcomeEventId), whose event workflows and delivery records go with it. */
  eventIds: string[];
}

const GONE_POLL_MS = 100;
const RUNS_PER_PAGE = 100;

/**
 * Erases a resource on its owner's request. Its events are suppressed first (WebhookStore: no
 * delivery attempt sends them from then on, not even one already under way or the event of the
 * cancellation below, which its workflow emits as it closes). Then a running workflow is canceled
 * (its work stops and it closes as canceled; without a worker it is terminated by the delete),
 * every run of its workflow id and the event workflows of its outcomes are deleted with their
 * histories (Temporal's DeleteWorkflowExecution), and the owner's delivery records of those
 * events with them. Temporal deletes in the background: true once it no longer finds the
 * workflow (a GET that follows answers 404), false when it still did at the RPC deadline.
 * Repeating it is harmless.
 */
@Injectable()
export class WorkflowEraser {
  constructor(
    private readonly temporal: TemporalClients,
    private readonly webhooks: WebhookStore,
  ) {}

  async erase(target: ErasureTarget): Promise<boolean> {
    const { environment, organizationId, workflowId } = target;
    const owner = { organizationId, environment };
    await this.webhooks.suppressEvents(owner, target.eventIds, new Date().toISOString());
    const description = await this.temporal.describe(environment, workflowId);
    if (description?.status.name === 'RUNNING') await this.cancelAndWait(environment, workflowId);
    await this.deleteEveryRun(environment, workflowId);
    // After the close: a canceled task has just started the event of its cancellation.
    for (const eventId of target.eventIds) await this.deleteRun(environment, webhookEventWorkflowId(organizationId, eventId));
    await this.webhooks.deleteDeliveriesOfEvents(owner, target.eventIds);
    return this.untilGone(environment, workflowId);
  }

  private async cancelAndWait(environment: KeyEnvironment, workflowId: string): Promise<void> {
    const handle = this.temporal.workflows(environment).getHandle(workflowId);
    await this.temporal.withDeadline(() => handle.cancel()).catch(ignoreNotFound);
    // A canceled workflow's result is a failure; no answer within the deadline (no worker) leaves the delete to terminate it.
    await this.temporal.withDeadline(() => handle.result()).catch(() => undefined);
  }

  /** The current run, and any earlier ones an operator's reset left (visibility lists them). */
  private async deleteEveryRun(environment: KeyEnvironment, workflowId: string): Promise<void> {
    await this.deleteRun(environment, workflowId);
    let pageToken: Uint8Array | undefined;
    do {
      const page = await this.temporal.listRuns(environment, `WorkflowId = ${quote(workflowId)}`, RUNS_PER_PAGE, pageToken);
      for (const run of page.runs) await this.deleteRun(environment, run.workflowId, run.runId);
      pageToken = page.nextPageToken;
    } while (pageToken);
  }

  private async deleteRun(environment: KeyEnvironment, workflowId: string, runId?: string): Promise<void> {
    await this.temporal
      .withDeadline(() =>
        this.temporal.workflowService(environment).deleteWorkflowExecution({
          namespace: this.temporal.namespaceFor(environment),
          workflowExecution: { workflowId, runId },
        }),
      )
      .catch(ignoreNotFound);
  }

  private async untilGone(environment: KeyEnvironment, workflowId: string): Promise<boolean> {
    const deadline = Date.now() + this.temporal.rpcTimeoutMs;
    for (;;) {
      if (!(await this.temporal.describe(environment, workflowId))) return true;
      if (Date.now() > deadline) return false;
      await new Promise((resolve) => setTimeout(resolve, GONE_POLL_MS));
    }
  }
}

function ignoreNotFound(error: unknown): void {
  if (!isGrpcNotFound(error)) throw error;
}
