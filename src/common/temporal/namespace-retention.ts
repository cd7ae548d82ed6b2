import type { Connection } from '@temporalio/client';
import { msToTs, tsToMs } from '@temporalio/common/lib/time';
import { isGrpcNotFound } from './grpc-not-found';

/** A namespace and its retention as Temporal reports it after the change. */
export interface NamespaceRetention {
  namespace: string;
  retentionMs: number;
}

/**
 * Makes each namespace keep closed workflows for `retentionMs`: registers it with that retention
 * when missing, updates it when its retention differs (the dev server registers its namespaces with
 * 24 hours). Shared by `npm start` and the cluster setup; needs the operator's right to manage
 * namespaces. Returns the retention Temporal reports afterwards.
 */
export async function applyNamespaceRetention(connection: Connection, namespaces: readonly string[], retentionMs: number): Promise<NamespaceRetention[]> {
  const service = connection.workflowService;
  const retention = msToTs(retentionMs);
  const applied: NamespaceRetention[] = [];
  for (const namespace of namespaces) {
    const current = await service.describeNamespace({ namespace }).catch((error: unknown) => {
      if (isGrpcNotFound(error)) return undefined;
      throw error;
    });
    if (!current) {
      await service.registerNamespace({ namespace, workflowExecutionRetentionPeriod: retention });
    } else if (tsToMs(current.config?.workflowExecutionRetentionTtl) !== retentionMs) {
      await service.updateNamespace({ namespace, config: { workflowExecutionRetentionTtl: retention } });
    }
    const after = await service.describeNamespace({ namespace });
    applied.push({ namespace, retentionMs: tsToMs(after.config?.workflowExecutionRetentionTtl) });
  }
  return applied;
}
