import type { AssayHarness } from './assay-harness';
import { bearer, http } from './http';
import { SUMMARIZE_TASK } from './tasks';

/** Small helpers over the real HTTP API for the webhook tests. */
export class WebhookApi {
  constructor(private readonly harness: AssayHarness) {}

  register(key: string, body: unknown) {
    return http(`${this.harness.baseUrl}/v1/webhook-endpoints`, { method: 'POST', headers: bearer(key), json: body });
  }

  get(key: string, path: string) {
    return http(`${this.harness.baseUrl}${path}`, { headers: bearer(key) });
  }

  async createTask(key: string): Promise<string> {
    const created = await http(`${this.harness.baseUrl}/v1/ai/tasks`, {
      method: 'POST',
      headers: bearer(key),
      json: SUMMARIZE_TASK,
    });
    if (created.status !== 202) throw new Error(`task not created: ${created.status} ${JSON.stringify(created.body)}`);
    return created.body.id as string;
  }

  /** Polls the endpoint's deliveries until `done` holds for them. */
  async deliveriesUntil(key: string, endpointId: string, done: (deliveries: any[]) => boolean, timeoutMs = 30_000): Promise<any[]> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const { body } = await this.get(key, `/v1/webhook-endpoints/${endpointId}/deliveries`);
      if (done(body.data)) return body.data;
      if (Date.now() > deadline) throw new Error(`deliveries never reached the expected state: ${JSON.stringify(body.data)}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
}
