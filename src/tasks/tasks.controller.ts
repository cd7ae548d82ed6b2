import { Body, Controller, Get, Headers, HttpCode, Param, Post, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { CurrentCaller } from '../http/current-caller.decorator';
import { parseIdempotencyKey } from '../http/idempotency-key';
import type { Caller } from '../keys/key-authenticator';
import type { TaskResource } from './task-resource';
import { TasksService } from './tasks.service';

@Controller('v1/ai/tasks')
export class TasksController {
  constructor(private readonly tasks: TasksService) {}

  @Post()
  @HttpCode(202)
  async create(
    @CurrentCaller() caller: Caller,
    @Body() body: unknown,
    @Headers('idempotency-key') idempotencyKey: string | undefined,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<TaskResource> {
    const { task, replayed } = await this.tasks.create(caller, body, parseIdempotencyKey(idempotencyKey));
    void reply.header('location', `/v1/ai/tasks/${task.id}`);
    if (replayed) void reply.header('idempotent-replayed', 'true');
    return task;
  }

  @Get(':taskId')
  get(@CurrentCaller() caller: Caller, @Param('taskId') taskId: string): Promise<TaskResource> {
    return this.tasks.get(caller, taskId);
  }
}
