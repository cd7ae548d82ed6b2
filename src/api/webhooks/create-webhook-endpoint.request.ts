import { ApiError } from '../platform/http/api-error';
import { describeFirstIssue } from '../platform/http/zod-issues';
import { createWebhookEndpointSchema, type CreateWebhookEndpointRequest } from '../../contract/wire/webhook';

/** Validates a registration body at the edge; the URL's safety is checked after this, with DNS. */
export function parseCreateWebhookEndpointRequest(body: unknown): CreateWebhookEndpointRequest {
  const parsed = createWebhookEndpointSchema.safeParse(body);
  if (!parsed.success) throw ApiError.invalidRequest(describeFirstIssue(parsed.error));
  const { url, events, description } = parsed.data;
  const unique = [...new Set(events)];
  return description === undefined ? { url, events: unique } : { url, events: unique, description };
}
