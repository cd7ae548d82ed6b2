import type { Connection } from '@temporalio/client';
import { temporal } from '@temporalio/proto';
import { SEARCH_ATTRIBUTE_KEYS } from '../contract';
import { isGrpcNotFound } from '../common/temporal/grpc-not-found';
import { applyNamespaceRetention } from '../common/temporal/namespace-retention';

// Well past the frontend's one-second memory of a missing namespace, even on a loaded machine.
const REGISTRY_WAIT_MS = 15_000;
const REGISTRY_RECHECK_MS = 200;

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
  const { customAttributes } = await searchAttributesOnceKnown(connection, namespace);
  const missing = SEARCH_ATTRIBUTE_KEYS.filter((key) => !customAttributes?.[key.name]);
  if (missing.length === 0) return;
  await connection.operatorService.addSearchAttributes({
    namespace,
    searchAttributes: Object.fromEntries(missing.map((key) => [key.name, INDEXED_VALUE_TYPES[key.type]])),
  });
}

/**
 * The namespace's search attributes, once the frontend knows a namespace registered just now: its
 * registry remembers for a second (1.32's readthrough TTL) that a name was missing, and the lookup
 * before the registration (applyNamespaceRetention) was such a miss.
 */
async function searchAttributesOnceKnown(connection: Connection, namespace: string) {
  const deadline = Date.now() + REGISTRY_WAIT_MS;
  for (;;) {
    try {
      return await connection.operatorService.listSearchAttributes({ namespace });
    } catch (error) {
      if (!isGrpcNotFound(error) || Date.now() > deadline) throw error;
    }
    await new Promise((resolve) => setTimeout(resolve, REGISTRY_RECHECK_MS));
  }
}
