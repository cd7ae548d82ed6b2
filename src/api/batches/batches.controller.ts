import { Body, Controller, Headers, Param, Query, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { ApiRoute } from '../platform/http/api-route';
import { answerCreated } from '../platform/http/created-answer';
import { CurrentCaller } from '../platform/http/current-caller.decorator';
import { parseIdempotencyKey } from '../platform/http/idempotency-key';
import { RateLimited } from '../platform/http/rate-limit.guard';
import type { Caller } from '../platform/keys/key-authenticator';
import type { ListPage } from '../../contract/wire/listing';
import { BATCH_ROUTES } from './batch.routes';
import { BatchesService } from './batches.service';
import type { Batch, Task } from '../../contract/wire';

@Controller()
export class BatchesController {
  constructor(private readonly batches: BatchesService) {}

  @ApiRoute(BATCH_ROUTES.create)
  @RateLimited()
  async create(
    @CurrentCaller() caller: Caller,
    @Body() body: unknown,
    @Headers('idempotency-key') idempotencyKey: string | undefined,
    @Headers('cancel-after') cancelAfter: string | undefined,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<Batch> {
    const created = await this.batches.create(caller, body, parseIdempotencyKey(idempotencyKey), cancelAfter);
    answerCreated(reply, BATCH_ROUTES.get, created.batch.id, created.replayed);
    return created.batch;
  }

  @ApiRoute(BATCH_ROUTES.cancel)
  cancel(@CurrentCaller() caller: Caller, @Param('batchId') batchId: string): Promise<Batch> {
    return this.batches.cancel(caller, batchId);
  }

  @ApiRoute(BATCH_ROUTES.tasks)
  listTasks(@CurrentCaller() caller: Caller, @Param('batchId') batchId: string, @Query() query: unknown): Promise<ListPage<Task>> {
    return this.batches.listTasks(caller, batchId, query);
  }

  @ApiRoute(BATCH_ROUTES.get)
  get(@CurrentCaller() caller: Caller, @Param('batchId') batchId: string): Promise<Batch> {
    return this.batches.get(caller, batchId);
  }
}
