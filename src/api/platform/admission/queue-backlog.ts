import { Injectable, Logger } from '@nestjs/common';
import { temporal } from '@temporalio/proto';
import type { KeyEnvironment } from '../../../common/keys/api-key';
import { TemporalClients } from '../temporal/temporal-clients';

// Stats move by the second; one read a second per environment serves every create meanwhile.
const FRESH_FOR_MS = 1000;
// A figure read before a quiet spell says nothing about now: the first create after it would be
// refused for a backlog long gone.
const USABLE_FOR_MS = 5000;
const QUEUE_TYPES = [temporal.api.enums.v1.TaskQueueType.TASK_QUEUE_TYPE_WORKFLOW, temporal.api.enums.v1.TaskQueueType.TASK_QUEUE_TYPE_ACTIVITY];

/**
 * How long the oldest task waiting on the shared task queue (its workflow or its activity side)
 * has waited for a worker, in an environment: Temporal's own approximate backlog age. A create
 * never waits for it: it gets the last figure read, and a figure older than a second is read again
 * in the background, so admission adds no round trip to a create and nothing when Temporal is
 * unreachable. Unknown (undefined) before the first read, when the last is over 5 s old (the
 * service was quiet meanwhile), and when Temporal could not say:
 * admission then lets the create through, and the start meets whatever Temporal answers.
 */
@Injectable()
export class QueueBacklog {
  private readonly logger = new Logger(QueueBacklog.name);
  private readonly known = new Map<KeyEnvironment, { at: number; ageSeconds: number | undefined }>();
  private readonly reading = new Set<KeyEnvironment>();

  constructor(private readonly temporalClients: TemporalClients) {}

  ageSeconds(environment: KeyEnvironment): number | undefined {
    const last = this.known.get(environment);
    if ((!last || Date.now() - last.at >= FRESH_FOR_MS) && !this.reading.has(environment)) {
      this.reading.add(environment);
      void this.read(environment)
        .then((ageSeconds) => this.known.set(environment, { at: Date.now(), ageSeconds }))
        .finally(() => this.reading.delete(environment));
    }
    return last && Date.now() - last.at < USABLE_FOR_MS ? last.ageSeconds : undefined;
  }

  private async read(environment: KeyEnvironment): Promise<number | undefined> {
    const service = this.temporalClients.client(environment).workflowService;
    const namespace = this.temporalClients.namespaceFor(environment);
    try {
      const ages = await Promise.all(
        QUEUE_TYPES.map(async (taskQueueType) => {
          const { stats } = await this.temporalClients.withDeadline(() =>
            service.describeTaskQueue({ namespace, taskQueue: { name: this.temporalClients.taskQueue }, taskQueueType, reportStats: true }),
          );
          const age = stats?.approximateBacklogAge;
          return Number(age?.seconds ?? 0) + (age?.nanos ?? 0) / 1e9;
        }),
      );
      return Math.max(...ages);
    } catch (error) {
      this.logger.warn(`the task queue's backlog is unknown, so creates are admitted: ${error instanceof Error ? error.message : String(error)}`);
      return undefined;
    }
  }
}
