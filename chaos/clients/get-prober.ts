import type { AssayClient } from '../../src/sdk';
import { sleep } from './concurrency';
import type { WorkItem } from './work-items';


/**
 * Clients polling accepted tasks while a scenario runs, as real clients would. Their answers are
 * booked by the client's ledger; errors are expected while a process is down and not thrown.
 */
export class GetProber {
  private running = true;
  private readonly lanes: Promise<void>[];
  gets = 0;

  /** `lanes` clients, each polling a random accepted task every `pauseMs`. */
  constructor(client: AssayClient, items: readonly WorkItem[], lanes: number, pauseMs: number) {
    const tasks = items.filter((item) => item.kind === 'task');
    this.lanes = Array.from({ length: lanes }, async () => {
      while (this.running) {
        const ids = [...(tasks[Math.floor(Math.random() * tasks.length)]?.ids ?? [])];
        if (ids.length > 0) {
          this.gets++;
          await client.getTask(ids[0]).catch(() => undefined);
        }
        await sleep(pauseMs);
      }
    });
  }

  async stop(): Promise<void> {
    this.running = false;
    await Promise.all(this.lanes);
  }
}
