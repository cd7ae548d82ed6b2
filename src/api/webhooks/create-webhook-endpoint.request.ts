import { z } from 'zod';
import { ApiError } from '../platform/http/api-error';
import { singleLine } from '../platform/http/text-patterns';
import { describeFirstIssue } from '../platform/http/zod-issues';
import { WEBHOOK_EVENT_TYPES } from '../../contract';
import type { CreateWebhookEndpointRequest } from '../../sdk/resources';

const MAX_URL_LENGTH = 2048;
// An absolute URI by RFC 3986's alphabet, the `format: uri` the document promises; whether it may
// be used (scheme, credentials, where it resolves) is decided after this, with DNS.
const ABSOLUTE_URI = /^[A-Za-z][A-Za-z0-9+.-]*:[A-Za-z0-9._~:/?#[\]@!$&'()*+,;=%-]*$/;
const URL_REQUIRED = 'must be an absolute URL such as https://example.com/webhooks';

export const createWebhookEndpointSchema = z
  .object({
    url: z.string({ error: 'required, an https URL' }).max(MAX_URL_LENGTH).regex(ABSOLUTE_URI, URL_REQUIRED).meta({ format: 'uri' }),
    events: z
      .array(z.enum(WEBHOOK_EVENT_TYPES, { error: `must be one of: ${WEBHOOK_EVENT_TYPES.join(', ')}` }), {
        error: `required, a list of event types (${WEBHOOK_EVENT_TYPES.join(', ')})`,
      })
      .min(1, 'must name at least one event type'),
    description: z.string().max(500).check(singleLine()).optional(),
  }, { error: 'must be a JSON object' })
  .strict();

/** Validates a registration body at the edge; the URL's safety is checked after this, with DNS. */
export function parseCreateWebhookEndpointRequest(body: unknown): CreateWebhookEndpointRequest {
  const parsed = createWebhookEndpointSchema.safeParse(body);
  if (!parsed.success) throw ApiError.invalidRequest(describeFirstIssue(parsed.error));
  const { url, events, description } = parsed.data;
  const unique = [...new Set(events)];
  return description === undefined ? { url, events: unique } : { url, events: unique, description };
}
