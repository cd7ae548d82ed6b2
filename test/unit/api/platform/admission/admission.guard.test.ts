import type { ExecutionContext } from '@nestjs/common';
import { AdmissionGuard } from '../../../../../src/api/platform/admission/admission.guard';
import { OrganisationCreateRates } from '../../../../../src/api/platform/admission/organisation-create-rates';
import type { QueueBacklog } from '../../../../../src/api/platform/admission/queue-backlog';
import type { AppConfig } from '../../../../../src/common/config/app-config';
import { ApiError } from '../../../../../src/api/platform/http/api-error';

/** A guard whose queue is `ageSeconds` behind (undefined: Temporal could not say). */
function guardWith(ageSeconds: number | undefined, maxQueueSeconds = 10) {
  const backlog = { ageSeconds: jest.fn(() => ageSeconds) } as unknown as QueueBacklog;
  const config = { values: { ADMISSION_MAX_QUEUE_SECONDS: maxQueueSeconds } } as AppConfig;
  return { guard: new AdmissionGuard(config, backlog, new OrganisationCreateRates()), backlog };
}

function createBy(organizationId: string): ExecutionContext {
  const request = { caller: { organizationId, environment: 'test', keyId: `key_${organizationId}` } };
  return { switchToHttp: () => ({ getRequest: () => request }) } as unknown as ExecutionContext;
}

function refusal(guard: AdmissionGuard, organizationId: string): ApiError | undefined {
  try {
    guard.canActivate(createBy(organizationId));
    return undefined;
  } catch (error) {
    return error as ApiError;
  }
}

describe('AdmissionGuard', () => {
  it('admits every create while the queue is within its bound', () => {
    const { guard } = guardWith(10);
    for (let index = 0; index < 50; index++) expect(refusal(guard, 'acme')).toBeUndefined();
  });

  it('past the bound answers the busiest organisation 429 with a Retry-After of at most 30 s, and admits a quiet one', () => {
    const { guard } = guardWith(25);
    for (let index = 0; index < 20; index++) refusal(guard, 'flood');
    const refused = refusal(guard, 'flood');
    expect(refused).toMatchObject({ status: 429, code: 'RATE_LIMITED', message: expect.stringMatching(/^The service is at capacity \(work waits 25 s for a worker\); retry in \d+ s$/) });
    const retryAfter = Number(refused?.headers['retry-after']);
    expect(retryAfter).toBeGreaterThanOrEqual(15);
    expect(retryAfter).toBeLessThanOrEqual(30);
    expect(refusal(guard, 'quiet')).toBeUndefined();
  });

  it('admits when Temporal cannot say how far behind the queue is, and asks nothing at all when admission is off', () => {
    expect(refusal(guardWith(undefined).guard, 'acme')).toBeUndefined();
    const off = guardWith(600, 0);
    expect(refusal(off.guard, 'acme')).toBeUndefined();
    expect(off.backlog.ageSeconds).not.toHaveBeenCalled();
  });
});
