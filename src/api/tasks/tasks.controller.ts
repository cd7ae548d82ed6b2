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
import { TASK_ROUTES } from './task.routes';
import { TasksService, isFinal } from './tasks.service';
import type { Task } from '../../contract/wire';

@Controller()
export class TasksController {
  constructor(private readonly tasks: TasksService) {}

  @ApiRoute(TASK_ROUTES.create)
  @RateLimited({ lendsSpareCapacity: true })
  @Admitted()
  async create(
    @CurrentCaller() caller: Caller,
    @Body() body: unknown,
    @Headers('idempotency-key') idempotencyKey: string | undefined,
    @Headers('prefer') prefer: string | undefined,
    @Headers('cancel-after') cancelAfter: string | undefined,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<Task> {
    const created = await this.tasks.create(caller, body, parseIdempotencyKey(idempotencyKey), cancelAfter);
    answerCreated(reply, TASK_ROUTES.get, created.task.id, created.replayed);
    const answer = await this.tasks.waitForFinal(caller, created, parsePreferWait(prefer));
    applyPreferWait(reply, answer);
    if (answer.appliedSeconds !== undefined && isFinal(answer.resource)) void reply.status(200);
    return answer.resource;
  }

  @ApiRoute(TASK_ROUTES.cancel)
  cancel(@CurrentCaller() caller: Caller, @Param('taskId') taskId: string): Promise<Task> {
    return this.tasks.cancel(caller, taskId);
  }

  // Under the create limits: an erasure costs Temporal as much work as a create, and writes too.
  @ApiRoute(TASK_ROUTES.erase)
  @RateLimited()
  async erase(@CurrentCaller() caller: Caller, @Param('taskId') taskId: string, @Res({ passthrough: true }) reply: FastifyReply): Promise<void> {
    if (!(await this.tasks.erase(caller, taskId))) void reply.status(202);
  }

  @ApiRoute(TASK_ROUTES.list)
  list(@CurrentCaller() caller: Caller, @Query() query: unknown): Promise<ListPage<Task>> {
    return this.tasks.list(caller, query);
  }

  @ApiRoute(TASK_ROUTES.get)
  async get(
    @CurrentCaller() caller: Caller,
    @Param('taskId') taskId: string,
    @Headers('prefer') prefer: string | undefined,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<Task> {
    const answer = await this.tasks.getWhenChanged(caller, taskId, parsePreferWait(prefer));
    applyPreferWait(reply, answer);
    return answer.resource;
  }
}
