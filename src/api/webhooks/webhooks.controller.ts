import { Body, Controller, Param, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { ApiRoute } from '../platform/http/api-route';
import { answerCreated } from '../platform/http/created-answer';
import { CurrentCaller } from '../platform/http/current-caller.decorator';
import { RateLimited } from '../platform/http/rate-limit.guard';
import type { Caller } from '../platform/keys/key-authenticator';
import { WEBHOOK_ROUTES } from './webhook.routes';
import { WebhooksService } from './webhooks.service';
import type { WebhookDelivery, WebhookEndpoint, WebhookEndpointWithSecret, WebhookEventQueued } from '../../contract/wire';

@Controller()
export class WebhooksController {
  constructor(private readonly webhooks: WebhooksService) {}

  // Under the create limit like every create: each registration costs a DNS lookup, which a
  // runaway client must not be able to multiply at will.
  @ApiRoute(WEBHOOK_ROUTES.create)
  @RateLimited()
  async create(
    @CurrentCaller() caller: Caller,
    @Body() body: unknown,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<WebhookEndpointWithSecret> {
    const endpoint = await this.webhooks.create(caller, body);
    answerCreated(reply, WEBHOOK_ROUTES.get, endpoint.id);
    return endpoint;
  }

  @ApiRoute(WEBHOOK_ROUTES.list)
  list(@CurrentCaller() caller: Caller): Promise<{ data: WebhookEndpoint[] }> {
    return this.webhooks.list(caller);
  }

  @ApiRoute(WEBHOOK_ROUTES.get)
  get(@CurrentCaller() caller: Caller, @Param('endpointId') id: string): Promise<WebhookEndpoint> {
    return this.webhooks.get(caller, id);
  }

  @ApiRoute(WEBHOOK_ROUTES.delete)
  async delete(@CurrentCaller() caller: Caller, @Param('endpointId') id: string): Promise<void> {
    await this.webhooks.delete(caller, id);
  }

  @ApiRoute(WEBHOOK_ROUTES.rotateSecret)
  rotateSecret(@CurrentCaller() caller: Caller, @Param('endpointId') id: string): Promise<WebhookEndpointWithSecret> {
    return this.webhooks.rotateSecret(caller, id);
  }

  @ApiRoute(WEBHOOK_ROUTES.deliveries)
  deliveries(@CurrentCaller() caller: Caller, @Param('endpointId') id: string): Promise<{ data: WebhookDelivery[] }> {
    return this.webhooks.deliveries(caller, id);
  }

  @ApiRoute(WEBHOOK_ROUTES.sendTestEvent)
  @RateLimited()
  sendTestEvent(@CurrentCaller() caller: Caller, @Param('endpointId') id: string): Promise<WebhookEventQueued> {
    return this.webhooks.sendTestEvent(caller, id);
  }

  @ApiRoute(WEBHOOK_ROUTES.redeliver)
  @RateLimited()
  redeliver(@CurrentCaller() caller: Caller, @Param('endpointId') id: string, @Param('deliveryId') deliveryId: string): Promise<WebhookEventQueued> {
    return this.webhooks.redeliver(caller, id, deliveryId);
  }

  @ApiRoute(WEBHOOK_ROUTES.enable)
  enable(@CurrentCaller() caller: Caller, @Param('endpointId') id: string): Promise<WebhookEndpoint> {
    return this.webhooks.enable(caller, id);
  }
}
