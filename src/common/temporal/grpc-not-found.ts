import { isGrpcServiceError } from '@temporalio/client';

/** gRPC's NOT_FOUND, which Temporal answers for a namespace or workflow that does not exist. */
const GRPC_NOT_FOUND = 5;

export function isGrpcNotFound(error: unknown): boolean {
  return isGrpcServiceError(error) && error.code === GRPC_NOT_FOUND;
}
