import { CredentialFormat } from '../credentials/credential-format';
import type { CredentialKind } from '../credentials/credential-kind';

/** An architecture reviewer's credential: `<brand>_rvw_<env>_<32 url-safe chars>`, identifying a reviewer by name. */
export const REVIEWER_CREDENTIALS: CredentialKind = { format: new CredentialFormat('rvw_', 'a reviewer credential'), idPrefix: 'rvw_', noun: 'reviewer credential' };

export const { parse: parseReviewerCredential } = REVIEWER_CREDENTIALS.format;

/** Who a reviewer is: the name recorded in the workflow and shown in GET. */
export const REVIEWER_NAME_SHAPE = /^[a-z0-9][a-z0-9._-]{0,63}$/;

/**
 * A reviewer group, as a pipeline stage names it (REVIEW_PIPELINES): a stage with a group accepts
 * claims and verdicts only from credentials carrying that group.
 */
export const REVIEWER_GROUP_SHAPE = /^[a-z0-9][a-z0-9_-]{0,31}$/;
