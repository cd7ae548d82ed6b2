import { Body, Controller, Headers, Param, Query, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { ApiRoute } from '../platform/http/api-route';
import { answerCreated } from '../platform/http/created-answer';
import { CurrentCaller } from '../platform/http/current-caller.decorator';
import { parseIdempotencyKey } from '../platform/http/idempotency-key';
import { applyPreferWait, parsePreferWait } from '../platform/http/prefer-wait';
import { Admitted } from '../platform/admission/admission.guard';
import { RateLimited } from '../platform/http/rate-limit.guard';
import type { Caller } from '../platform/keys/key-authenticator';
import type { ListPage } from '../../contract/wire/listing';
import { ASSESSMENT_ROUTES } from './assessment.routes';
import { AssessmentsService } from './assessments.service';
import type { Assessment } from '../../contract/wire';

@Controller()
export class AssessmentsController {
  constructor(private readonly assessments: AssessmentsService) {}

  @ApiRoute(ASSESSMENT_ROUTES.create)
  @RateLimited()
  @Admitted()
  async create(
    @CurrentCaller() caller: Caller,
    @Body() body: unknown,
    @Headers('idempotency-key') idempotencyKey: string | undefined,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<Assessment> {
    const { assessment, replayed } = await this.assessments.create(caller, body, parseIdempotencyKey(idempotencyKey));
    answerCreated(reply, ASSESSMENT_ROUTES.get, assessment.assessment_id, replayed);
    return assessment;
  }

  @ApiRoute(ASSESSMENT_ROUTES.list)
  list(@CurrentCaller() caller: Caller, @Query() query: unknown): Promise<ListPage<Assessment>> {
    return this.assessments.list(caller, query);
  }

  // Under the create limits: an erasure costs Temporal as much work as a create, and writes too.
  @ApiRoute(ASSESSMENT_ROUTES.erase)
  @RateLimited()
  async erase(@CurrentCaller() caller: Caller, @Param('assessmentId') assessmentId: string, @Res({ passthrough: true }) reply: FastifyReply): Promise<void> {
    if (!(await this.assessments.erase(caller, assessmentId))) void reply.status(202);
  }

  @ApiRoute(ASSESSMENT_ROUTES.get)
  async get(
    @CurrentCaller() caller: Caller,
    @Param('assessmentId') assessmentId: string,
    @Headers('prefer') prefer: string | undefined,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<Assessment> {
    const answer = await this.assessments.getWhenChanged(caller, assessmentId, parsePreferWait(prefer));
    applyPreferWait(reply, answer);
    return answer.resource;
  }
}
