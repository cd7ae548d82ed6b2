import { useState } from 'preact/hooks';
import type { WebhookDelivery, WebhookEndpoint, WebhookEndpointWithSecret, WebhookEventType } from '../../src/sdk';
import { describeFailure, request } from '../api';
import { shortTime } from '../format';
import { usePolling } from '../use-polling';

const EVENT_TYPES: WebhookEventType[] = ['ai_task.completed', 'assessment.reviewed'];
const ENDPOINTS = '/v1/webhook-endpoints';

/** Register endpoints, and for each: rotate the secret, send a test event, read the delivery log, redeliver, re-enable. */
export function WebhookEndpoints() {
  const endpoints = usePolling(() => request<{ data: WebhookEndpoint[] }>('GET', ENDPOINTS), 'endpoints');
  const [secret, setSecret] = useState<{ id: string; secret: string } | undefined>(undefined);
  const [message, setMessage] = useState<{ text: string; error: boolean } | undefined>(undefined);
  const run = async (action: () => Promise<string>) => {
    try {
      setMessage({ text: await action(), error: false });
      endpoints.reload();
    } catch (error) {
      setMessage({ text: describeFailure(error), error: true });
    }
  };
  return (
    <section aria-labelledby="webhooks-title">
      <h1 id="webhooks-title">Webhook endpoints</h1>
      {message && <p role={message.error ? 'alert' : 'status'} class={message.error ? 'error' : 'ok'}>{message.text}</p>}
      {secret && (
        <p class="secret" role="status">
          Signing secret of {secret.id} (shown once; store it now): <code data-testid="secret">{secret.secret}</code>
        </p>
      )}
      <RegisterForm
        onRegistered={(created) => {
          setSecret({ id: created.id, secret: created.secret });
          endpoints.reload();
        }}
        onError={(text) => setMessage({ text, error: true })}
      />
      {endpoints.error && <p role="alert" class="error">{endpoints.error}</p>}
      {endpoints.value?.data.map((endpoint) => (
        <article key={endpoint.id} class="endpoint" aria-label={`Endpoint ${endpoint.url}`}>
          <h2>{endpoint.url}</h2>
          <p class="muted">
            {endpoint.id} · {endpoint.events.join(', ')} · <span data-testid="endpoint-status" class={endpoint.status === 'disabled' ? 'error' : undefined}>{endpoint.status}</span>
            {endpoint.disabled_reason && <> ({endpoint.disabled_reason})</>}
          </p>
          <div class="buttons">
            <button type="button" onClick={() => run(async () => `Test event ${(await request<{ event_id: string }>('POST', `${ENDPOINTS}/${endpoint.id}/test`)).event_id} sent`)}>Send test event</button>
            <button
              type="button"
              class="secondary"
              onClick={() =>
                run(async () => {
                  const rotated = await request<WebhookEndpointWithSecret>('POST', `${ENDPOINTS}/${endpoint.id}/rotate-secret`);
                  setSecret({ id: rotated.id, secret: rotated.secret });
                  return 'Secret rotated; the old one keeps signing beside it for 24 hours';
                })
              }
            >
              Rotate secret
            </button>
            {endpoint.status === 'disabled' && (
              <button type="button" class="secondary" onClick={() => run(async () => (await request('POST', `${ENDPOINTS}/${endpoint.id}/enable`), 'Endpoint enabled'))}>
                Re-enable
              </button>
            )}
          </div>
          <DeliveryLog endpointId={endpoint.id} onRedeliver={(deliveryId) => run(async () => `Event ${(await request<{ event_id: string }>('POST', `${ENDPOINTS}/${endpoint.id}/deliveries/${deliveryId}/redeliver`)).event_id} redelivered`)} />
        </article>
      ))}
    </section>
  );
}

function RegisterForm({ onRegistered, onError }: { onRegistered: (created: WebhookEndpointWithSecret) => void; onError: (text: string) => void }) {
  const [url, setUrl] = useState('');
  const [events, setEvents] = useState<WebhookEventType[]>(['ai_task.completed']);
  return (
    <form
      class="register"
      aria-label="Register an endpoint"
      onSubmit={async (event) => {
        event.preventDefault();
        try {
          onRegistered(await request<WebhookEndpointWithSecret>('POST', ENDPOINTS, { url, events }));
          setUrl('');
        } catch (error) {
          onError(describeFailure(error));
        }
      }}
    >
      <label for="endpoint-url">Endpoint URL</label>
      <input id="endpoint-url" type="url" required value={url} placeholder="https://example.com/assay-events" onInput={(event) => setUrl((event.target as HTMLInputElement).value)} />
      <fieldset>
        <legend>Events</legend>
        {EVENT_TYPES.map((type) => (
          <label key={type}>
            <input
              type="checkbox"
              checked={events.includes(type)}
              onChange={(event) => setEvents((event.target as HTMLInputElement).checked ? [...events, type] : events.filter((other) => other !== type))}
            />{' '}
            {type}
          </label>
        ))}
      </fieldset>
      <button type="submit" disabled={events.length === 0}>Register</button>
    </form>
  );
}

function DeliveryLog({ endpointId, onRedeliver }: { endpointId: string; onRedeliver: (deliveryId: string) => void }) {
  const log = usePolling(() => request<{ data: WebhookDelivery[] }>('GET', `${ENDPOINTS}/${endpointId}/deliveries`), endpointId);
  if (!log.value) return <p role="status">{log.error ?? 'Loading the delivery log…'}</p>;
  if (log.value.data.length === 0) return <p class="muted">No deliveries yet.</p>;
  return (
    <table class="list deliveries" aria-label="Delivery log">
      <thead>
        <tr><th scope="col">When</th><th scope="col">Event</th><th scope="col">Attempt</th><th scope="col">Outcome</th><th scope="col">Status</th><th scope="col">Error</th><th scope="col"><span class="visually-hidden">Action</span></th></tr>
      </thead>
      <tbody>
        {log.value.data.map((delivery) => (
          <tr key={delivery.id}>
            <td>{shortTime(delivery.attempted_at)}</td>
            <td>{delivery.event_type}<div class="muted">{delivery.event_id}</div></td>
            <td>{delivery.attempt}</td>
            <td class={delivery.outcome === 'failed' ? 'error' : 'ok'}>{delivery.outcome}</td>
            <td>{delivery.http_status ?? '—'}</td>
            <td>{delivery.error ?? ''}</td>
            <td><button type="button" class="secondary" onClick={() => onRedeliver(delivery.id)}>Redeliver</button></td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
