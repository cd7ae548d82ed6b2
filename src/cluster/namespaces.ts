import { isGrpcServiceError, type Connection } from '@temporalio/client';
import { msToTs } from '@temporalio/common/lib/time';
import { temporal } from '@temporalio/proto';
import { SEARCH_ATTRIBUTE_KEYS } from '../contract';

/** How long a closed workflow's history stays readable (tasks and assessments included) before Temporal deletes it. */
export const NAMESPACE_RETENTION_DAYS = 30;

const DAY_MS = 24 * 60 * 60 * 1000;
// gRPC's status code for "already exists".
const ALREADY_EXISTS = 6;
const INDEXED_VALUE_TYPES: Record<(typeof SEARCH_ATTRIBUTE_KEYS)[number]['type'], temporal.api.enums.v1.IndexedValueType> = {
  KEYWORD: temporal.api.enums.v1.IndexedValueType.INDEXED_VALUE_TYPE_KEYWORD,
};

/**
 * Everything a namespace of Assay's needs on a real cluster, through the operator API, for each
 * namespace: it exists, with 30-day retention, and it has Assay's search attributes
 * (src/contract/search-attributes.ts). Safe to run on every start: what is there already stays.
 */
export async function setUpNamespaces(connection: Connection, namespaces: readonly string[]): Promise<void> {
  for (const namespace of namespaces) {
    await registerNamespace(connection, namespace);
    await addSearchAttributes(connection, namespace);
  }
}

async function registerNamespace(connection: Connection, namespace: string): Promise<void> {
  try {
    await connection.workflowService.registerNamespace({
      namespace,
      workflowExecutionRetentionPeriod: msToTs(NAMESPACE_RETENTION_DAYS * DAY_MS),
    });
  } catch (error) {
    if (!isGrpcServiceError(error) || error.code !== ALREADY_EXISTS) throw error;
  }
}

async function addSearchAttributes(connection: Connection, namespace: string): Promise<void> {
  const { customAttributes } = await connection.operatorService.listSearchAttributes({ namespace });
  const missing = SEARCH_ATTRIBUTE_KEYS.filter((key) => !customAttributes?.[key.name]);
  if (missing.length === 0) return;
  await connection.operatorService.addSearchAttributes({
    namespace,
    searchAttributes: Object.fromEntries(missing.map((key) => [key.name, INDEXED_VALUE_TYPES[key.type]])),
  });
}
