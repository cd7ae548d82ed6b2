import type { StoredWebhookEndpoint } from '../storage/tables';

/** After a rotation the old secret keeps signing for this long, so receivers can switch without losing events. */
export const PREVIOUS_SECRET_OVERLAP_MS = 24 * 60 * 60 * 1000;

/** The secrets that sign a message sent at `now`: the current one, and the previous one while its overlap lasts. */
export function signingSecrets(endpoint: Pick<StoredWebhookEndpoint, 'secret' | 'previousSecret' | 'previousSecretExpiresAt'>, now: Date): string[] {
  const previousActive =
    endpoint.previousSecret !== null && endpoint.previousSecretExpiresAt !== null && Date.parse(endpoint.previousSecretExpiresAt) > now.getTime();
  return previousActive ? [endpoint.secret, endpoint.previousSecret as string] : [endpoint.secret];
}
