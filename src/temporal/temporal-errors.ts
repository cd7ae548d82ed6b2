import { ServiceError } from '@temporalio/client';

// gRPC status codes (https://grpc.github.io/grpc/core/md_doc_statuscodes.html).
const GRPC_DEADLINE_EXCEEDED = 4;
const GRPC_UNAVAILABLE = 14;

/** True when the error means the Temporal frontend could not be reached in time (not a domain answer). */
export function isTemporalUnavailable(error: unknown): boolean {
  if (!(error instanceof ServiceError)) return false;
  const code = (error.cause as { code?: number } | undefined)?.code;
  return code === GRPC_UNAVAILABLE || code === GRPC_DEADLINE_EXCEEDED;
}
