import { Body, Controller, Delete, Get, HttpCode, Param, Post, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { CurrentCaller } from '../http/current-caller.decorator';
import { RateLimited } from '../http/rate-limit.guard';
import type { Caller } from '../keys/key-authenticator';
import type { WebhookDeliveryResource, WebhookEndpointResource, WebhookEndpointWithSecret } from './webhook-endpoint-resource';
import { WebhooksService } from './webhooks.service';

@Controller('v1/webhook-endpoints')
export class WebhooksController {
  constructor(private readonly webhooks: WebhooksService) {}

  // Under the create limit like every create: each registration costs a DNS lookup, which a
  // runaway client must not be able to multiply at will.
  @Post()
  @HttpCode(201)
  @RateLimited()
  async create(
    @CurrentCaller() caller: Caller,
    @Body() body: unknown,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<WebhookEndpointWithSecret> {
    const endpoint = await this.webhooks.create(caller, body);
    void reply.header('location', `/v1/webhook-endpoints/${endpoint.id}`);
    return endpoint;
  }

  @Get()
  list(@CurrentCaller() caller: Caller): Promise<{ data: WebhookEndpointResource[] }> {
    return this.webhooks.list(caller);
  }

  @Get(':endpointId')
  get(@CurrentCaller() caller: Caller, @Param('endpointId') id: string): Promise<WebhookEndpointResource> {
    return this.webhooks.get(caller, id);
  }

  @Delete(':endpointId')
  @HttpCode(204)
  async delete(@CurrentCaller() caller: Caller, @Param('endpointId') id: string): Promise<void> {
    await this.webhooks.delete(caller, id);
  }

  @Post(':endpointId/rotate-secret')
  @HttpCode(200)
  rotateSecret(@CurrentCaller() caller: Caller, @Param('endpointId') id: string): Promise<WebhookEndpointWithSecret> {
    return this.webhooks.rotateSecret(caller, id);
  }

  @Get(':endpointId/deliveries')
  deliveries(@CurrentCaller() caller: Caller, @Param('endpointId') id: string): Promise<{ data: WebhookDeliveryResource[] }> {
    return this.webhooks.deliveries(caller, id);
  }
}
