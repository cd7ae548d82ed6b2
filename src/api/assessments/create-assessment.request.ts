import { z } from 'zod';
import { multiLine, singleLine, singleLineNotBlank } from '../platform/http/text-patterns';
import { ApiError } from '../platform/http/api-error';
import { describeFirstIssue } from '../platform/http/zod-issues';
import type { NetworkComponent, NetworkGraph, NetworkLink } from '../../contract';
import { ASSESSMENT_LIMITS as LIMITS } from './assessment-limits';
import { ASSESSMENT_ID_PATTERN } from '../../common/ids/assessment-ids';

const COMPONENT_ID = /^[A-Za-z0-9._:-]+$/;

export interface CreateAssessmentRequest {
  name: string;
  context: string;
  graph: NetworkGraph;
  /** Present only when given, so the request hash of a create without it is what it was before revisions. */
  revisionOf?: string;
}

/** A message for a value of the wrong type only, so zod's own message for unknown keys still names them. */
function wrongType(message: string) {
  return { error: (issue: { code: string }) => (issue.code === 'invalid_type' ? message : undefined) };
}

function label(maxLength: number) {
  return z
    .string({ error: `required, a string of 1-${maxLength} characters` })
    .min(1, { error: 'must not be empty' })
    .max(maxLength, { error: `must be at most ${maxLength} characters` })
    .check(singleLineNotBlank('must not be blank'));
}

const attributeValue = z.union(
  [z.string().max(LIMITS.attributeStringLength).check(singleLine()), z.number().finite(), z.boolean()],
  { error: `must be a string of at most ${LIMITS.attributeStringLength} characters, a finite number or a boolean` },
);

const componentSchema = z
  .object(
    {
      id: z
        .string({ error: 'required, a string' })
        .min(1, { error: 'must not be empty' })
        .max(LIMITS.componentIdLength, { error: `must be at most ${LIMITS.componentIdLength} characters` })
        .regex(COMPONENT_ID, { error: 'may contain only letters, digits and . _ : -' }),
      kind: label(LIMITS.kindLength),
      zone: label(LIMITS.zoneLength),
      attributes: z
        .record(label(LIMITS.attributeKeyLength), attributeValue, wrongType('must be an object'))
        .refine((attributes) => Object.keys(attributes).length <= LIMITS.attributes, {
          error: `must have at most ${LIMITS.attributes} keys`,
        })
        .meta({ maxProperties: LIMITS.attributes })
        .optional(),
    },
    wrongType('must be an object with id, kind and zone'),
  )
  .strict();

// Checked against the components by the superRefine below; documented with a component id's shape,
// which is what no component can have that a link's end does not.
const COMPONENT_REFERENCE = { pattern: COMPONENT_ID.source, maxLength: LIMITS.componentIdLength, description: 'The id of a component in this request.' };

const linkSchema = z
  .object(
    {
      from: z.string({ error: 'required, a component id' }).meta(COMPONENT_REFERENCE),
      to: z.string({ error: 'required, a component id' }).meta(COMPONENT_REFERENCE),
      kind: label(LIMITS.kindLength).optional(),
    },
    wrongType('must be an object with from and to'),
  )
  .strict();

export const createAssessmentSchema = z
  .object(
    {
      name: label(LIMITS.nameLength),
      context: z
        .string({ error: 'must be a string' })
        .max(LIMITS.contextLength, { error: `must be at most ${LIMITS.contextLength} characters` })
        .check(multiLine())
        .optional(),
      components: z
        .array(componentSchema, { error: 'required, an array of components' })
        .min(1, { error: 'must list at least one component' })
        .max(LIMITS.components, { error: `must list at most ${LIMITS.components} components` }),
      links: z
        .array(linkSchema, { error: 'required, an array of links (may be empty)' })
        .max(LIMITS.links, { error: `must list at most ${LIMITS.links} links` }),
      revision_of: z
        .string({ error: 'must be an assessment id' })
        .regex(new RegExp(ASSESSMENT_ID_PATTERN), { error: 'must be an assessment id: asmt_ and a ULID' })
        .meta({
          description:
            'The assessment this one revises: one of yours in this environment whose review requested changes (`changes_requested`), which no other assessment revises yet. Both then show the link (`revision_of`, `revised_by`), and reviewers see what changed.',
          example: 'asmt_01JB8ZM2D7E9F1G3H5J7K9M1N3',
        })
        .optional(),
    },
    wrongType('must be a JSON object'),
  )
  .strict()
  .superRefine((request, context) => {
    const firstIndexById = new Map<string, number>();
    request.components.forEach((component, index) => {
      const first = firstIndexById.get(component.id);
      if (first === undefined) {
        firstIndexById.set(component.id, index);
      } else {
        context.addIssue({ code: 'custom', path: ['components', index, 'id'], message: `"${component.id}" is already the id of components.${first}` });
      }
    });
    request.links.forEach((link, index) => {
      for (const end of ['from', 'to'] as const) {
        if (!firstIndexById.has(link[end])) {
          context.addIssue({ code: 'custom', path: ['links', index, end], message: `"${truncate(link[end])}" is not the id of any component` });
        }
      }
    });
  });

/** Validates a create body at the edge; everything after this works with a well-formed architecture. */
export function parseCreateAssessmentRequest(body: unknown): CreateAssessmentRequest {
  const parsed = createAssessmentSchema.safeParse(body);
  if (!parsed.success) throw ApiError.invalidRequest(describeFirstIssue(parsed.error));
  const { name, context = '', components, links, revision_of: revisionOf } = parsed.data;
  const request: CreateAssessmentRequest = { name, context, graph: { components: components.map(pickComponent), links: links.map(pickLink) } };
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

function truncate(value: string): string {
  return value.length > 40 ? `${value.slice(0, 40)}…` : value;
}
