import type { z } from 'zod';

/** "input.text: Invalid input: expected string, received number" — names the offending field first. */
export function describeFirstIssue(error: z.ZodError): string {
  const issue = error.issues[0];
  const field = issue.path.length > 0 ? issue.path.join('.') : 'body';
  return `${field}: ${issue.message}`;
}
