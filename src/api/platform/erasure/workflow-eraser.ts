import { Injectable } from '@nestjs/common';
import type { KeyEnvironment } from '../../../common/keys/api-key';
import { WebhookStore } from '../../../common/storage/webhook-store';
import type { EventOwner } from '../../../common/storage/tables';
import { isGrpcNotFound } from '../../../common/temporal/grpc-status';
import { webhookEventWorkflowId } from '../../../contract';
import { quote } from '../../../common/visibility/visibility-query';
import { TemporalClients } from '../temporal/temporal-clients';

/** What erasing one task or assessment removes. */
export interface ErasureTarget {
  environment: KeyEnvironment;
  organizationId: string;
  workflowId: string;
  /** Every event id the resource's outcomes can have (outcomeEventId), whose event workflows, redeliveries and delivery records go with it. */
  eventIds: string[];
}

/**
 * `erased`: Temporal no longer finds the workflow (a GET that follows answers 404); `deleting`:
 * it still did at the RPC deadline; `unknown`: the owner has no such resource, and nothing was done.
 */
export type ErasureOutcome = 'erased' | 'deleting' | 'unknown';

const GONE_POLL_MS = 100;
const RUNS_PER_PAGE = 100;

/**
 * Erases a resource on its owner's request. Its events are suppressed first (WebhookStore: no
 * delivery attempt sends them from then on, not even one already under way, a redelivery's or the
 * event of the cancellation below, which its workflow emits as it closes). Then a running workflow
 * is canceled (its work stops and it closes as canceled; without a worker it is terminated by the
 * delete), and every workflow that carries the resource's data is deleted with its history
 * (Temporal's DeleteWorkflowExecution): every run of its workflow id, the event workflows of its
 * outcomes and the redeliveries of those events; the owner's delivery records of those events go
 * with them. Temporal deletes in the background.
 *
 * A resource is the owner's when Temporal has its workflow (whose id holds the organisation, and
 * whose namespace is the environment's), or the owner's suppressions of its events are still kept
 * (an erasure of theirs within the retention period, which a repeat completes if it was cut
 * short), or a redelivery of its events is recorded. Anything else is `unknown` and writes nothing,
 * so ids that never existed cost no storage.
 */
@Injectable()
export class WorkflowEraser {
  constructor(
    private readonly temporal: TemporalClients,
    private readonly webhooks: WebhookStore,
  ) {}

  async erase(target: ErasureTarget): Promise<ErasureOutcome> {
    const { environment, organizationId, workflowId, eventIds } = target;
    const owner = { organizationId, environment };
    const description = await this.temporal.describe(environment, workflowId);
    if (!description && !(await this.heldElsewhere(owner, eventIds))) return 'unknown';
    await this.webhooks.suppressEvents(owner, eventIds, new Date().toISOString());
    if (description?.status.name === 'RUNNING') await this.cancelAndWait(environment, workflowId);
    await this.deleteEveryRun(environment, workflowId);
    // After the close: a canceled task has just started the event of its cancellation.
    for (const eventId of eventIds) await this.temporal.deleteRun(environment, webhookEventWorkflowId(organizationId, eventId));
    // A redelivery records its workflow before starting it, and deletes it itself if it finds the event suppressed once started (WebhooksService.redeliver).
    for (const redelivery of await this.webhooks.redeliveriesOf(owner, eventIds)) await this.temporal.deleteRun(environment, redelivery);
    await this.webhooks.forgetRedeliveries(owner, eventIds);
    await this.webhooks.deleteDeliveriesOfEvents(owner, eventIds);
    return (await this.untilGone(environment, workflowId)) ? 'erased' : 'deleting';
  }

  /**
   * Whether the owner has something of a resource Temporal no longer describes: an erasure of
   * theirs still remembered (its suppressions), or a redelivery of its events, whose workflow is
   * kept for the retention period after it closes and so can outlive the resource.
   */
  private async heldElsewhere(owner: EventOwner, eventIds: readonly string[]): Promise<boolean> {
    return (await this.webhooks.anySuppressed(owner, eventIds)) || (await this.webhooks.redeliveriesOf(owner, eventIds)).length > 0;
  }

  private async cancelAndWait(environment: KeyEnvironment, workflowId: string): Promise<void> {
    const handle = this.temporal.workflows(environment).getHandle(workflowId);
    await this.temporal.withDeadline(() => handle.cancel()).catch(ignoreNotFound);
    // A canceled workflow's result is a failure; no answer within the deadline (no worker) leaves the delete to terminate it.
    await this.temporal.withDeadline(() => handle.result()).catch(() => undefined);
  }

  /** The current run, and any earlier ones an operator's reset left (visibility lists them). */
  private async deleteEveryRun(environment: KeyEnvironment, workflowId: string): Promise<void> {
    await this.temporal.deleteRun(environment, workflowId);
    let pageToken: Uint8Array | undefined;
    do {
      const page = await this.temporal.listRuns(environment, `WorkflowId = ${quote(workflowId)}`, RUNS_PER_PAGE, pageToken);
      for (const run of page.runs) await this.temporal.deleteRun(environment, run.workflowId, run.runId);
      pageToken = page.nextPageToken;
    } while (pageToken);
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
