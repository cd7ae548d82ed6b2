import { WebhookVerificationError, verifyWebhook } from '../../../../src/sdk';
import { signingSecrets } from '../../../../src/common/webhooks/webhook-secrets';
import { generateWebhookSecret, signWebhook } from '../../../../src/common/webhooks/webhook-signing';

const NOW = 1_750_000_000;
const BODY = JSON.stringify({ id: 'evt_1', type: 'ai_task.completed', created_at: '2025-06-15T15:06:40.000Z', data: { id: 'task_1', status: 'succeeded' } });

function signed(secret: string, body = BODY, timestamp = NOW, id = 'evt_1') {
  return { 'webhook-id': id, 'webhook-timestamp': String(timestamp), 'webhook-signature': signWebhook([secret], id, timestamp, body) };
}

describe('signing and verifying with the SDK helper', () => {
  it('verifies what the service signed and returns the parsed event', async () => {
    const secret = generateWebhookSecret();
    const event = await verifyWebhook(BODY, signed(secret), secret, { nowSeconds: NOW });
    expect(event).toEqual(JSON.parse(BODY));
  });

  it('matches the Standard Webhooks reference signature', async () => {
    const header = signWebhook(['whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw'], 'msg_p5jXN8AQM9LWM0D4loKWxJek', 1614265330, '{"test": 2432232314}');
    expect(header).toBe('v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=');
  });

  it('accepts a Headers object and a byte body as well as plain objects and strings', async () => {
    const secret = generateWebhookSecret();
    const headers = new Headers(signed(secret));
    await expect(verifyWebhook(new TextEncoder().encode(BODY), headers, secret, { nowSeconds: NOW })).resolves.toMatchObject({ id: 'evt_1' });
  });
});

describe('refusing what was not sent by Assay, or not now', () => {
  it('refuses a tampered body', async () => {
    const secret = generateWebhookSecret();
    const tampered = BODY.replace('succeeded', 'failed');
    await expect(verifyWebhook(tampered, signed(secret), secret, { nowSeconds: NOW })).rejects.toThrow(WebhookVerificationError);
  });

  it('refuses a timestamp older than the tolerance, even with a valid signature', async () => {
    const secret = generateWebhookSecret();
    const old = signed(secret, BODY, NOW - 301);
    await expect(verifyWebhook(BODY, old, secret, { nowSeconds: NOW, toleranceSeconds: 300 })).rejects.toThrow('too old');
  });

  it('refuses a timestamp far in the future', async () => {
    const secret = generateWebhookSecret();
    await expect(verifyWebhook(BODY, signed(secret, BODY, NOW + 301), secret, { nowSeconds: NOW })).rejects.toThrow(WebhookVerificationError);
  });

  it('refuses another secret', async () => {
    await expect(verifyWebhook(BODY, signed(generateWebhookSecret()), generateWebhookSecret(), { nowSeconds: NOW })).rejects.toThrow(
      'No signature matches',
    );
  });

  it('refuses a message id changed after signing', async () => {
    const secret = generateWebhookSecret();
    const headers = { ...signed(secret), 'webhook-id': 'evt_2' };
    await expect(verifyWebhook(BODY, headers, secret, { nowSeconds: NOW })).rejects.toThrow(WebhookVerificationError);
  });

  it('refuses a request without the headers', async () => {
    await expect(verifyWebhook(BODY, {}, generateWebhookSecret(), { nowSeconds: NOW })).rejects.toThrow('Missing');
  });
});

describe('secret rotation', () => {
  const endpoint = { secret: 'whsec_bmV3bmV3bmV3bmV3bmV3bmV3', previousSecret: 'whsec_b2xkb2xkb2xkb2xkb2xkb2xk', previousSecretExpiresAt: '2025-01-02T00:00:00.000Z' };

  it('signs with both secrets while the previous one is within its 24 h, so either verifies', async () => {
    const secrets = signingSecrets(endpoint, new Date('2025-01-01T12:00:00.000Z'));
    expect(secrets).toEqual([endpoint.secret, endpoint.previousSecret]);
    const headers = { 'webhook-id': 'evt_1', 'webhook-timestamp': String(NOW), 'webhook-signature': signWebhook(secrets, 'evt_1', NOW, BODY) };
    expect(headers['webhook-signature'].split(' ')).toHaveLength(2);
    await expect(verifyWebhook(BODY, headers, endpoint.secret, { nowSeconds: NOW })).resolves.toBeDefined();
    await expect(verifyWebhook(BODY, headers, endpoint.previousSecret, { nowSeconds: NOW })).resolves.toBeDefined();
  });

  it('signs with the new secret alone once the overlap has ended', () => {
    expect(signingSecrets(endpoint, new Date('2025-01-02T00:00:00.000Z'))).toEqual([endpoint.secret]);
  });
});

describe('secrets', () => {
  it('are whsec_ and 32 random bytes in base64', () => {
    const secret = generateWebhookSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(secret.slice(6), 'base64')).toHaveLength(32);
    expect(generateWebhookSecret()).not.toBe(secret);
  });
});
