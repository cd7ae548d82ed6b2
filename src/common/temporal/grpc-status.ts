import { status } from '@grpc/grpc-js';
import { isGrpcServiceError } from '@temporalio/client';

// The status codes come from the gRPC library Temporal's client speaks through, so no number is
// written by hand here or anywhere else in Assay.
export { status as GrpcStatus };

/** NOT_FOUND: a namespace or workflow that does not exist. */
export function isGrpcNotFound(error: unknown): boolean {
  return isGrpcServiceError(error) && error.code === status.NOT_FOUND;
}

/** ALREADY_EXISTS: e.g. registering a namespace that is registered. */
export function isGrpcAlreadyExists(error: unknown): boolean {
  return isGrpcServiceError(error) && error.code === status.ALREADY_EXISTS;
}
