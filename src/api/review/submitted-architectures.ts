import type { Client } from '@temporalio/client';
import { LRUCache } from 'lru-cache';
import type { AssessmentWorkflowInput, NetworkGraph } from '../../contract';
import { readWorkflowStartInput } from '../platform/temporal/workflow-start-input';

/** What the customer submitted for review: it lives only in the workflow's input, and never changes. */
export interface SubmittedArchitecture {
  context: string;
  graph: NetworkGraph;
  /** The assessment this one revises, when it is a revision. */
  revisionOf?: string;
}

// The largest accepted graph is about 4 MB of JSON; this keeps a few dozen of those, or thousands of ordinary ones.
const MAX_CACHED_CHARACTERS = 128 * 1024 * 1024;
// Only a bound on how long the memory of an erased assessment's architecture can outlive its
// erasure on another API instance: a read never reaches the cache before describe() found the
// workflow, so an erased one is never served.
const CACHED_FOR_MS = 60 * 60_000;

/**
 * The submitted context and graph of each assessment a reviewer opened, decrypted once from the
 * first event of its history instead of on every refresh of the review page (every 3 s). The
 * input is the same for every run of a workflow id (a reset keeps it), so the key is the
 * namespace and the workflow id.
 */
export class SubmittedArchitectures {
  private readonly cache = new LRUCache<string, SubmittedArchitecture>({
    maxSize: MAX_CACHED_CHARACTERS,
    sizeCalculation: (architecture) => Math.max(1, architecture.context.length + JSON.stringify(architecture.graph).length),
    ttl: CACHED_FOR_MS,
  });

  async read(client: Client, workflowId: string): Promise<SubmittedArchitecture> {
    const key = cacheKey(client.options.namespace, workflowId);
    const cached = this.cache.get(key);
    if (cached) return cached;
    const input = await readWorkflowStartInput<AssessmentWorkflowInput>(client, workflowId);
    const architecture: SubmittedArchitecture = { context: input.context, graph: input.graph, ...(input.revisionOf === undefined ? {} : { revisionOf: input.revisionOf }) };
    this.cache.set(key, architecture);
    return architecture;
  }

  /** After an erasure on this instance: its decrypted text leaves memory at once. */
  forget(namespace: string, workflowId: string): void {
    this.cache.delete(cacheKey(namespace, workflowId));
  }
}

function cacheKey(namespace: string, workflowId: string): string {
  return `${namespace}/${workflowId}`;
}
