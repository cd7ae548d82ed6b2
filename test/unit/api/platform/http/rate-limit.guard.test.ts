import 'reflect-metadata';
import { Controller, Get, Global, HttpCode, Injectable, Module, Post, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { APP_FILTER, APP_GUARD, NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { ApiExceptionFilter } from '../../../../../src/api/platform/http/api-exception.filter';
import { ApiRoutesModule } from '../../../../../src/api/platform/http/api-routes';
import type { AuthenticatedRequest } from '../../../../../src/api/platform/http/request-authenticator';
import { CreateRateLimits, MemoryCreateRateLimits } from '../../../../../src/api/platform/http/rate-limit';
import { TokenBucketLimiter } from '../../../../../src/common/rate-limits/token-bucket';
import { CreateLimitLender, RateLimited } from '../../../../../src/api/platform/http/rate-limit.guard';

const clock = { now: 0 };

/** Buckets that cannot be reached for one key, as when the shared store is down. */
class PartlyUnreachableLimiter extends TokenBucketLimiter {
  override take(partitionKey: string) {
    if (partitionKey === 'key_store_down') throw new Error('connect ECONNREFUSED 127.0.0.1:5432');
    return super.take(partitionKey);
  }
}

/** Stands in for the RequestAuthenticator: the caller's key id and organisation come from test headers (the organisation defaults to one per key). */
@Injectable()
class HeaderAuthGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    const request = context.switchToHttp().getRequest<AuthenticatedRequest>();
    const keyId = String(request.headers['x-key-id']);
    request.caller = { organizationId: String(request.headers['x-organisation'] ?? `org_of_${keyId}`), environment: 'test', keyId };
    return true;
  }
}

@Controller('v1/ai/tasks')
class FakeTasksController {
  @Post()
  @HttpCode(202)
  @RateLimited()
  create() {
    return { id: 'task_1', status: 'queued' };
  }

  @Get(':id')
  get() {
    return { id: 'task_1', status: 'running' };
  }
}

/** Lends only to the organisations named alone…, as admission would to one nobody else works beside. */
class AloneLender extends CreateLimitLender {
  asked = 0;

  lends(_environment: string, organizationId: string): Promise<boolean> {
    this.asked += 1;
    return Promise.resolve(organizationId.startsWith('alone'));
  }
}
const lender = new AloneLender();

@Controller('v1/lending')
class FakeLendingController {
  @Post()
  @HttpCode(202)
  @RateLimited({ lendsSpareCapacity: true })
  create() {
    return { id: 'task_2', status: 'queued' };
  }
}

@Global()
@Module({
  providers: [
    { provide: CreateLimitLender, useValue: lender },
    {
      provide: CreateRateLimits,
      useValue: new MemoryCreateRateLimits(
        new PartlyUnreachableLimiter({ name: 'creates', perMinute: 1, burst: 2 }, () => clock.now),
        new PartlyUnreachableLimiter({ name: 'organisation-creates', perMinute: 1, burst: 3 }, () => clock.now),
      ),
    },
  ],
  exports: [CreateRateLimits, CreateLimitLender],
})
class TestRateLimitModule {}

@Module({
  // The exception filter reads the routes to answer 405.
  imports: [TestRateLimitModule, ApiRoutesModule],
  controllers: [FakeTasksController, FakeLendingController],
  providers: [
    { provide: APP_GUARD, useClass: HeaderAuthGuard },
    { provide: APP_FILTER, useClass: ApiExceptionFilter },
  ],
})
class TestAppModule {}

let app: NestFastifyApplication;

beforeAll(async () => {
  app = await NestFactory.create<NestFastifyApplication>(TestAppModule, new FastifyAdapter({ genReqId: () => 'req_test' }), { logger: false });
  await app.init();
  await app.getHttpAdapter().getInstance().ready();
});

afterAll(async () => {
  await app?.close();
});

function request(method: 'GET' | 'POST', keyId: string, url = '/v1/ai/tasks', organisation?: string) {
  const headers = { 'x-key-id': keyId, 'content-type': 'application/json', ...(organisation ? { 'x-organisation': organisation } : {}) };
  return app.getHttpAdapter().getInstance().inject({ method, url, headers, payload: method === 'POST' ? '{}' : undefined });
}

describe('@RateLimited() on create routes', () => {
  it('answers creates with the policy and the quota left', async () => {
    const response = await request('POST', 'key_headers');
    expect(response.statusCode).toBe(202);
    expect(response.headers['ratelimit-policy']).toBe('"creates";q=2;w=120, "organisation-creates";q=3;w=180');
    expect(response.headers.ratelimit).toBe('"creates";r=1;t=60, "organisation-creates";r=2;t=60');
  });

  it('answers a burst over the limit with 429 RATE_LIMITED, Retry-After and the RateLimit headers', async () => {
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await request('POST', 'key_burst')).statusCode);
    const refused = await request('POST', 'key_burst');
    expect(statuses).toEqual([202, 202, 429]);
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toEqual({ error: { code: 'RATE_LIMITED', message: expect.stringMatching(/API key; retry in 60 s/), request_id: 'req_test' } });
    expect(refused.headers['retry-after']).toBe('60');
    expect(refused.headers['ratelimit-policy']).toBe('"creates";q=2;w=120');
    expect(refused.headers.ratelimit).toBe('"creates";r=0;t=60');
  });

  it('never limits polling one task every second for a minute, even with the create quota spent', async () => {
    while ((await request('POST', 'key_poller')).statusCode !== 429);
    const polls = [];
    for (let second = 0; second < 60; second++) {
      clock.now += 1000;
      polls.push(await request('GET', 'key_poller', '/v1/ai/tasks/task_1'));
    }
    expect(polls.map((poll) => poll.statusCode)).toEqual(Array(60).fill(200));
    expect(polls.every((poll) => poll.headers.ratelimit === undefined)).toBe(true);
  });

  it('answers 503 with Retry-After when the buckets cannot be reached, never letting the create through', async () => {
    const response = await request('POST', 'key_store_down');
    expect(response.statusCode).toBe(503);
    expect(response.json()).toEqual({ error: { code: 'SERVICE_UNAVAILABLE', message: expect.stringMatching(/create limit cannot be checked/), request_id: 'req_test' } });
    expect(response.headers['retry-after']).toBe('2');
  });

  it('limits each key on its own', async () => {
    while ((await request('POST', 'key_busy')).statusCode !== 429);
    expect((await request('POST', 'key_quiet')).statusCode).toBe(202);
  });

  it('limits an organisation over all its keys, and no other organisation with it', async () => {
    const statuses = [];
    for (const keyId of ['key_g1', 'key_g1', 'key_g2', 'key_g2']) statuses.push((await request('POST', keyId, undefined, 'globex')).statusCode);
    const refused = await request('POST', 'key_g3', undefined, 'globex');
    expect(statuses).toEqual([202, 202, 202, 429]);
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toEqual({ error: { code: 'RATE_LIMITED', message: expect.stringMatching(/organisation in this environment; retry in 60 s/), request_id: 'req_test' } });
    expect(refused.headers['retry-after']).toBe('60');
    expect(refused.headers.ratelimit).toBe('"creates";r=1;t=60, "organisation-creates";r=0;t=60');
    expect((await request('POST', 'key_i1', undefined, 'initech')).statusCode).toBe(202);
  });
});

describe('@RateLimited({ lendsSpareCapacity: true })', () => {
  it('admits an organisation alone past its limits, and asks nothing while the limits admit', async () => {
    lender.asked = 0;
    const statuses = [];
    for (let i = 0; i < 5; i++) statuses.push((await request('POST', 'key_alone', '/v1/lending', 'alone')).statusCode);
    expect(statuses).toEqual([202, 202, 202, 202, 202]);
    expect(lender.asked).toBe(3);
  });

  it('keeps the limits for an organisation with neighbours', async () => {
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await request('POST', 'key_crowded', '/v1/lending', 'crowded')).statusCode);
    expect(statuses).toEqual([202, 202, 429]);
  });

  it('never lends on a route that does not ask for it', async () => {
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await request('POST', 'key_alone_tasks', undefined, 'alone-too')).statusCode);
    expect(statuses).toEqual([202, 202, 429]);
  });
});
