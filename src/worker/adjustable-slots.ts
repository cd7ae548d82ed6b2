import type { CustomSlotSupplier, SlotPermit, WorkflowSlotInfo } from '@temporalio/worker';

/**
 * Workflow-task slots whose number can change while the worker runs: a reservation over the
 * current size waits until a slot is released or the size grows. Shrinking takes no slot back; the
 * size binds again as held slots are released.
 */
export class AdjustableSlots implements CustomSlotSupplier<WorkflowSlotInfo> {
  readonly type = 'custom';
  private held = 0;
  private readonly waiting = new Set<() => void>();

  constructor(private limit: number) {}

  get size(): number {
    return this.limit;
  }

  resize(limit: number): void {
    this.limit = limit;
    this.grantWaiting();
  }

  reserveSlot(_context: unknown, abortSignal: AbortSignal): Promise<SlotPermit> {
    if (this.tryReserveSlot()) return Promise.resolve({});
    return new Promise<SlotPermit>((resolve, reject) => {
      const grant = () => {
        abortSignal.removeEventListener('abort', abandon);
        resolve({});
      };
      const abandon = () => {
        this.waiting.delete(grant);
        reject(abortSignal.reason);
      };
      this.waiting.add(grant);
      abortSignal.addEventListener('abort', abandon, { once: true });
    });
  }

  tryReserveSlot(): SlotPermit | null {
    if (this.held >= this.limit) return null;
    this.held += 1;
    return {};
  }

  markSlotUsed(): void {}

  releaseSlot(): void {
    this.held -= 1;
    this.grantWaiting();
  }

  private grantWaiting(): void {
    for (const grant of this.waiting) {
      if (this.held >= this.limit) return;
      this.waiting.delete(grant);
      this.held += 1;
      grant();
    }
  }
}
