import type { Connection } from '@temporalio/client';
import { temporal } from '@temporalio/proto';
import { SEARCH_ATTRIBUTE_KEYS } from '../contract';
import { applyNamespaceRetention } from '../common/temporal/namespace-retention';

const INDEXED_VALUE_TYPES: Record<(typeof SEARCH_ATTRIBUTE_KEYS)[number]['type'], temporal.api.enums.v1.IndexedValueType> = {
  KEYWORD: temporal.api.enums.v1.IndexedValueType.INDEXED_VALUE_TYPE_KEYWORD,
};

/**
 * Everything a namespace of Assay's needs on a real cluster, through the operator API, for each
 * namespace: it exists, keeping closed workflows for `retentionMs` (RETENTION_PERIOD, as `npm start`
 * sets it), and it has Assay's search attributes (src/contract/search-attributes.ts). Safe to run
 * on every start: what is there already stays, but a retention that differs is brought in line.
 */
export async function setUpNamespaces(connection: Connection, namespaces: readonly string[], retentionMs: number): Promise<void> {
  await applyNamespaceRetention(connection, namespaces, retentionMs);
  for (const namespace of namespaces) await addSearchAttributes(connection, namespace);
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
