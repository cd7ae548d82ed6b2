import { isGrpcServiceError } from '@temporalio/client';

// The gRPC status codes Assay acts on, as Temporal answers them.
const GRPC_NOT_FOUND = 5;
const GRPC_ALREADY_EXISTS = 6;

/** NOT_FOUND: a namespace or workflow that does not exist. */
export function isGrpcNotFound(error: unknown): boolean {
  return isGrpcServiceError(error) && error.code === GRPC_NOT_FOUND;
}

/** ALREADY_EXISTS: e.g. registering a namespace that is registered. */
export function isGrpcAlreadyExists(error: unknown): boolean {
  return isGrpcServiceError(error) && error.code === GRPC_ALREADY_EXISTS;
}
