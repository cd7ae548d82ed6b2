import { randomBytes } from 'node:crypto';
import { KEY_ENVIRONMENTS, type KeyEnvironment } from '../keys/api-key';

const SECRET_BYTES = 24;
const VISIBLE_SECRET_CHARS = 6;
// `rvw` sits where an API key has its environment, so no credential ever parses as an API key
// and the reverse: each kind is refused by the other kind's routes before any lookup.
const CREDENTIAL_SHAPE = /^([a-z][a-z0-9]{1,15})_rvw_(test|live)_([A-Za-z0-9_-]{32})$/;

/** Who a reviewer is: the name recorded in the workflow and shown in GET. */
export const REVIEWER_NAME_SHAPE = /^[a-z0-9][a-z0-9._-]{0,63}$/;

/**
 * A reviewer group, as a pipeline stage names it (REVIEW_PIPELINES): a stage with a group accepts
 * claims and verdicts only from credentials carrying that group.
 */
export const REVIEWER_GROUP_SHAPE = /^[a-z0-9][a-z0-9_-]{0,31}$/;

export interface ParsedReviewerCredential {
  brand: string;
  environment: KeyEnvironment;
}

/** A new reviewer credential: `<brand>_rvw_<env>_<32 url-safe chars>` carrying 192 random bits. */
export function generateReviewerCredential(brand: string, environment: KeyEnvironment): string {
  return `${brand}_rvw_${environment}_${randomBytes(SECRET_BYTES).toString('base64url')}`;
}

export function parseReviewerCredential(credential: string): ParsedReviewerCredential | undefined {
  const match = CREDENTIAL_SHAPE.exec(credential);
  if (!match || !(KEY_ENVIRONMENTS as readonly string[]).includes(match[2])) return undefined;
  return { brand: match[1], environment: match[2] as KeyEnvironment };
}

/** What operators see in listings: enough to recognise a credential, never enough to use it. */
export function visibleReviewerPrefix(credential: string): string {
  const parsed = parseReviewerCredential(credential);
  if (!parsed) throw new Error('not a reviewer credential');
  const secretStart = parsed.brand.length + '_rvw_'.length + parsed.environment.length + 1;
  return `${credential.slice(0, secretStart + VISIBLE_SECRET_CHARS)}…`;
}
