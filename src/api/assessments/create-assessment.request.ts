import { ApiError } from '../platform/http/api-error';
import { describeFirstIssue } from '../platform/http/zod-issues';
import type { NetworkComponent, NetworkGraph, NetworkLink } from '../../contract';
import { ASSESSMENT_LIMITS as LIMITS } from '../../contract/wire/assessment-limits';
import { createAssessmentSchema } from '../../contract/wire/assessment';

/** A create as the service works with it: the graph gathered, its keys in a fixed order. */
export interface ParsedCreateAssessment {
  name: string;
  context: string;
  graph: NetworkGraph;
  /** Present only when given, so the request hash of a create without it is what it was before revisions. */
  revisionOf?: string;
}

/** Validates a create body at the edge; everything after this works with a well-formed architecture. */
export function parseCreateAssessmentRequest(body: unknown): ParsedCreateAssessment {
  const parsed = createAssessmentSchema.safeParse(body);
  if (!parsed.success) throw ApiError.invalidRequest(describeFirstIssue(parsed.error));
  const { name, context = '', components, links, revision_of: revisionOf } = parsed.data;
  const request: ParsedCreateAssessment = { name, context, graph: { components: components.map(pickComponent), links: links.map(pickLink) } };
  if (revisionOf !== undefined) request.revisionOf = revisionOf;
  const bytes = Buffer.byteLength(JSON.stringify(request), 'utf8');
  if (bytes > LIMITS.serializedBytes) {
    throw new ApiError(413, 'PAYLOAD_TOO_LARGE', `The architecture is ${bytes} bytes once serialised; at most ${LIMITS.serializedBytes} are accepted`);
  }
  return request;
}

/** A fixed key order, so the request hash does not depend on how the client ordered its keys. */
function pickComponent(component: NetworkComponent): NetworkComponent {
  const { id, kind, zone, attributes } = component;
  return attributes === undefined ? { id, kind, zone } : { id, kind, zone, attributes };
}

function pickLink(link: NetworkLink): NetworkLink {
  const { from, to, kind } = link;
  return kind === undefined ? { from, to } : { from, to, kind };
}
