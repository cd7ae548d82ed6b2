import type * as contract from '../../../src/contract';
import type * as sdk from '../../../src/sdk';
import type { SameType } from '../../../src/api/openapi/schemas/same-type';

// The SDK is published on its own, so it writes the contract's wire vocabularies again instead of
// importing them. These lines stop the type check (and this test) when a copy drifts.
const mirrors = {
  taskTypes: true satisfies SameType<sdk.CreateTaskRequest['task_type'], contract.TaskType>,
  taskStatuses: true satisfies SameType<sdk.TaskStatus, contract.TaskStatus>,
  taskErrorCodes: true satisfies SameType<sdk.TaskErrorCode, contract.TaskErrorCode>,
  assessmentStatuses: true satisfies SameType<sdk.AssessmentStatus, contract.AssessmentStatus>,
  findingSeverities: true satisfies SameType<sdk.FindingSeverity, contract.FindingSeverity>,
  reviewVerdicts: true satisfies SameType<sdk.ReviewVerdict, contract.ReviewVerdict>,
  webhookEventTypes: true satisfies SameType<sdk.WebhookEvent['type'], contract.WebhookEventType>,
};

describe("the SDK's copies of the contract's vocabularies", () => {
  it.each(Object.entries(mirrors))('match for %s', (_name, same) => {
    expect(same).toBe(true);
  });
});
