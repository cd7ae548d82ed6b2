import type { FastifyReply } from 'fastify';
import type { ApiOperation } from '../openapi/api-operation';
import { PATH_PARAMETER } from './api-route';

/**
 * A create's answer headers: Location, the path of the operation that reads the new resource with
 * its id in place (so the path is declared once, in its routes), and Idempotent-Replayed when the
 * answer replays an earlier create with the same Idempotency-Key.
 */
export function answerCreated(reply: FastifyReply, readOperation: ApiOperation, id: string, replayed = false): void {
  void reply.header('location', readOperation.path.replace(PATH_PARAMETER, encodeURIComponent(id)));
  if (replayed) void reply.header('idempotent-replayed', 'true');
}
