import { CredentialFormat } from '../credentials/credential-format';

/** An architecture reviewer's credential: `<brand>_rvw_<env>_<32 url-safe chars>`. */
export const REVIEWER_CREDENTIAL_FORMAT = new CredentialFormat('rvw_', 'a reviewer credential');
export const { parse: parseReviewerCredential } = REVIEWER_CREDENTIAL_FORMAT;

/** Who a reviewer is: the name recorded in the workflow and shown in GET. */
export const REVIEWER_NAME_SHAPE = /^[a-z0-9][a-z0-9._-]{0,63}$/;

/**
 * A reviewer group, as a pipeline stage names it (REVIEW_PIPELINES): a stage with a group accepts
 * claims and verdicts only from credentials carrying that group.
 */
export const REVIEWER_GROUP_SHAPE = /^[a-z0-9][a-z0-9_-]{0,31}$/;
