import type { z } from 'zod';

/** "input.text: Invalid input: expected string, received number" — names the offending field first. */
export function describeFirstIssue(error: z.ZodError): string {
  return describeIssue(error.issues[0]);
}

export function describeIssue(issue: z.core.$ZodIssue): string {
  const field = issue.path.length > 0 ? issue.path.join('.') : 'body';
  // A record's key that failed its schema: say why, not only that it is invalid.
  const message = issue.code === 'invalid_key' && issue.issues.length > 0 ? `key ${issue.issues[0].message}` : issue.message;
  return `${field}: ${message}`;
}
