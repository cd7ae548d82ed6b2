import { prefixedIdPattern } from '../../contract/wire/id-patterns';
import { newPrefixedId, prefixedIdMatcher } from '../ids/prefixed-ulid';

const ENDPOINT_ID_PREFIX = 'we_';
const DELIVERY_ID_PREFIX = 'wd_';

export const newWebhookEndpointId = (): string => newPrefixedId(ENDPOINT_ID_PREFIX);
export const isWebhookEndpointId = prefixedIdMatcher(ENDPOINT_ID_PREFIX);
export const WEBHOOK_ENDPOINT_ID_PATTERN = prefixedIdPattern(ENDPOINT_ID_PREFIX);
export const newWebhookDeliveryId = (): string => newPrefixedId(DELIVERY_ID_PREFIX);
export const isWebhookDeliveryId = prefixedIdMatcher(DELIVERY_ID_PREFIX);
export const WEBHOOK_DELIVERY_ID_PATTERN = prefixedIdPattern(DELIVERY_ID_PREFIX);
