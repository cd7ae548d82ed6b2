import type { Client } from '@temporalio/client';
import type { Payload } from '@temporalio/common';
import { temporal } from '@temporalio/proto';
import { isGrpcNotFound } from '../../src/common/temporal/grpc-status';

/**
 * The ids of the workflows in the client's namespace whose history holds `needle`: anywhere in its
 * bytes (ids, plain payloads) or in a payload as the client's codec decodes it (encrypted ones).
 * Every workflow visibility lists is read, whatever its type or id, so a copy in a workflow nobody
 * thought of is found too; one deleted since it was listed holds nothing.
 */
export async function workflowsHolding(client: Client, needle: string): Promise<string[]> {
  const holding: string[] = [];
  for await (const execution of client.workflow.list()) {
    const history = await client.workflow
      .getHandle(execution.workflowId, execution.runId)
      .fetchHistory()
      .catch((error: unknown) => {
        if (isGrpcNotFound(error)) return undefined;
        throw error;
      });
    if (!history) continue;
    const decoded = await decode(client, payloadsIn(history));
    const texts = [temporal.api.history.v1.History.encode(history).finish(), ...decoded.map((payload) => payload.data ?? new Uint8Array())];
    if (texts.some((bytes) => Buffer.from(bytes).includes(needle))) holding.push(execution.workflowId);
  }
  return holding;
}

/** Every Payload (an object with `metadata` and `data`) anywhere in a history's events. */
function payloadsIn(value: unknown, found: Payload[] = []): Payload[] {
  if (value === null || typeof value !== 'object' || value instanceof Uint8Array) return found;
  if ('metadata' in value && 'data' in value) found.push(value as Payload);
  for (const child of Object.values(value)) payloadsIn(child, found);
  return found;
}

/** Decodes as a client reading them would: its codecs in reverse order. */
async function decode(client: Client, payloads: Payload[]): Promise<Payload[]> {
  let decoded = payloads;
  for (const codec of [...client.options.loadedDataConverter.payloadCodecs].reverse()) decoded = await codec.decode(decoded);
  return decoded;
}
