import type { FastifyReply, FastifyRequest } from 'fastify';

/** Resources whose id goes on a request's log lines: from the route parameter, or from Location on a create. */
const RESOURCES = [
  { param: 'taskId', locationPrefix: '/v1/ai/tasks/', field: 'task_id' },
  { param: 'assessmentId', locationPrefix: '/v1/network-assessments/', field: 'assessment_id' },
] as const;

/**
 * Fastify writes "request completed" with the logger the reply was given when the request
 * arrived, before the auth guard bound the organisation to request.log. Giving the reply the
 * request's current logger, plus the id of the resource the request concerned, puts the request
 * id, organisation and task id on that line. Keys never get there: the guard binds only the key's
 * id, and every line is scrubbed of anything key-shaped (create-logger.ts).
 */
export function bindRequestLogContext(request: FastifyRequest, reply: FastifyReply): void {
  const ids = resourceIds(request, reply);
  reply.log = Object.keys(ids).length > 0 ? request.log.child(ids) : request.log;
}

function resourceIds(request: FastifyRequest, reply: FastifyReply): Record<string, string> {
  const params = (request.params ?? {}) as Record<string, string | undefined>;
  const location = reply.getHeader('location');
  const ids: Record<string, string> = {};
  for (const resource of RESOURCES) {
    const fromLocation = typeof location === 'string' && location.startsWith(resource.locationPrefix) ? location.slice(resource.locationPrefix.length) : undefined;
    const id = params[resource.param] ?? fromLocation;
    if (id) ids[resource.field] = id;
  }
  return ids;
}
