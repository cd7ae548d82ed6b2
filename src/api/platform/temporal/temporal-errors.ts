import { ServiceError, isGrpcServiceError } from '@temporalio/client';
import { GrpcStatus } from '../../../common/temporal/grpc-status';

// The API never cancels its own calls, so CANCELLED means the connection went away under the call
// (a server killed mid-request answers exactly that), which is the same as unreachable for a client.
const UNREACHABLE_CODES: ReadonlySet<number> = new Set([GrpcStatus.CANCELLED, GrpcStatus.DEADLINE_EXCEEDED, GrpcStatus.UNAVAILABLE]);

/**
 * True when the error means the Temporal frontend could not be reached in time (not a domain
 * answer): the SDK's ServiceError around the gRPC status, or the bare gRPC error that calls on the
 * raw workflow service (the list's visibility query, a history read) throw.
 */
export function isTemporalUnavailable(error: unknown): boolean {
  const grpc = isGrpcServiceError(error) ? error : error instanceof ServiceError ? error.cause : undefined;
  const code = (grpc as { code?: number } | undefined)?.code;
  return code !== undefined && UNREACHABLE_CODES.has(code);
}
