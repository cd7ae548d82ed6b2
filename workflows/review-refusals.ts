import { ApplicationFailure } from '@temporalio/common';
import { MAX_REVIEWER_GROUPS, MAX_REVIEWER_LENGTH, type ReviewRefusalCode } from '../src/contract';

const CONTROL_CHARACTERS = /\p{Cc}/u;

/** An update validator's refusal: the update is rejected before it is written to the history. */
export function refuse(code: ReviewRefusalCode, message: string): never {
  throw ApplicationFailure.create({ type: code, message, nonRetryable: true });
}

export function requireReviewer(value: unknown, required: true): string;
export function requireReviewer(value: unknown, required: false): string | undefined;
export function requireReviewer(value: unknown, required: boolean): string | undefined {
  if (value === undefined && !required) return undefined;
  if (typeof value !== 'string' || value.trim() !== value || value.length === 0 || value.length > MAX_REVIEWER_LENGTH || CONTROL_CHARACTERS.test(value)) {
    refuse('INVALID_REVIEW_REQUEST', `reviewer must be 1-${MAX_REVIEWER_LENGTH} characters, without surrounding spaces or control characters`);
  }
  return value;
}

/** A request from before groups existed carries none; the API always sends the credential's. */
export function requireGroups(value: unknown): readonly string[] {
  if (value === undefined) return [];
  if (!Array.isArray(value) || value.length > MAX_REVIEWER_GROUPS || !value.every((group) => typeof group === 'string' && group.length > 0 && group.length <= MAX_REVIEWER_LENGTH)) {
    refuse('INVALID_REVIEW_REQUEST', `groups must be at most ${MAX_REVIEWER_GROUPS} non-empty names`);
  }
  return value as string[];
}
