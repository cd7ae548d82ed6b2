import type { DynamicConfig } from './fair-dispatch-config';

/**
 * What Assay changes from the Temporal server's (1.32) defaults on every server it runs: the
 * embedded dev server passes it at start, `npm run cluster` writes it to its dynamic config file.
 */
export const ASSAY_SERVER_DYNAMIC_CONFIG: DynamicConfig = {
  // By default the server re-reads search attributes from its database on every use, so attributes
  // added while it runs apply at once. Ours are written with the namespaces before the workers
  // start, and the re-reads cost ~11 % of the dev server's CPU under polling (docs/benchmarks.md).
  'system.forceSearchAttributesCacheRefreshOnRead': false,
  // Deleting a closed workflow otherwise waits until the history service's transfer queue shows
  // the workflow's close task done, and that queue's progress is saved only every
  // history.transferProcessorUpdateAckInterval (30 s): an erasure took ~33 s. The close task only
  // reports a child's close to its parent and applies the parent close policy to open children;
  // a workflow deleted before it ran loses that. Assay's only children are event workflows,
  // ABANDONed by a task or assessment that has closed and awaits nothing, so nothing is lost and
  // an erased resource is gone within ~0.1 s (docs/operations.md, Erasure). Deleting a running
  // workflow (terminate, then delete) never waited on this.
  'history.transferProcessorEnsureCloseBeforeDelete': false,
  // The dev server turns eager activities on: a worker completing a workflow task may take the
  // activities it schedules straight from the answer, past the task queue, and so past fair
  // dispatch and the per-organisation dispatch caps (docs/operations.md, Tenant isolation).
  // Off, as a cluster's default is, every activity waits its turn in the queue.
  'system.enableActivityEagerExecution': false,
};
