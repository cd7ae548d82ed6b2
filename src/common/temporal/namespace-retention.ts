import type { Connection } from '@temporalio/client';
import { msToTs, tsToMs } from '@temporalio/common/lib/time';
import { isGrpcAlreadyExists } from './grpc-status';

/** A namespace and its retention as Temporal reports it after the change. */
export interface NamespaceRetention {
  namespace: string;
  retentionMs: number;
}

/**
 * Makes each namespace keep closed workflows for `retentionMs`: registers it with that retention,
 * or, when it exists already, updates it if its retention differs (the dev server registers its
 * namespaces with 24 hours). Registering before any lookup matters: the frontend remembers for a
 * second that a looked-up name was missing, so a lookup before the registration would make the
 * calls right after it fail. Shared by `npm start` and the cluster setup; needs the operator's right
 * to manage namespaces. Returns the retention Temporal reports afterwards.
 */
export async function applyNamespaceRetention(connection: Connection, namespaces: readonly string[], retentionMs: number): Promise<NamespaceRetention[]> {
  const service = connection.workflowService;
  const retention = msToTs(retentionMs);
  const applied: NamespaceRetention[] = [];
  for (const namespace of namespaces) {
    const registered = await service.registerNamespace({ namespace, workflowExecutionRetentionPeriod: retention }).then(
      () => true,
      (error: unknown) => {
        if (isGrpcAlreadyExists(error)) return false;
        throw error;
      },
    );
    // An existing namespace already set right is reported as read; any write is read back.
    const existing = registered ? undefined : await service.describeNamespace({ namespace });
    let reported = existing && tsToMs(existing.config?.workflowExecutionRetentionTtl);
    if (reported !== retentionMs) {
      if (existing) await service.updateNamespace({ namespace, config: { workflowExecutionRetentionTtl: retention } });
      reported = tsToMs((await service.describeNamespace({ namespace })).config?.workflowExecutionRetentionTtl);
    }
    applied.push({ namespace, retentionMs: reported });
  }
  return applied;
}
