import { Writable } from 'node:stream';
import { generateApiKey } from '../../../../src/common/keys/api-key';
import { redactApiKeys } from '../../../../src/common/logging/redact-keys';
import { createLogger } from '../../../../src/common/logging/create-logger';

const key = generateApiKey('assay', 'live');
const secret = key.slice('assay_live_'.length);

function capturingLogger(): { logger: ReturnType<typeof createLogger>; output: () => string } {
  const lines: string[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(chunk.toString());
      done();
    },
  });
  return { logger: createLogger('trace', 'api', destination), output: () => lines.join('') };
}

describe('redacting keys from text', () => {
  it.each([
    ['a bare key', key],
    ['a key in a URL', `/v1/ai/tasks?api_key=${key}&x=1`],
    ['a Bearer header value', `Bearer ${key}`],
    ['a key glued to other characters', `x_${key}`],
    ['a truncated key', key.slice(0, 'assay_live_'.length + 10)],
  ])('removes the secret from %s', (_name, text) => {
    const redacted = redactApiKeys(text);
    expect(redacted).not.toContain(secret.slice(0, 6));
    expect(redacted).toContain('[redacted]');
  });

  it('removes any Bearer or Basic credential, key-shaped or not', () => {
    expect(redactApiKeys('authorization: Bearer not-a-key-but-secret')).toBe('authorization: Bearer [redacted]');
    expect(redactApiKeys('"Basic dXNlcjpwYXNz"')).toBe('"Basic [redacted]"');
  });

  it('leaves text without credentials alone', () => {
    const text = 'task task_01JAAAAAAAAAAAAAAAAAAAAAAA for org acme, key_id key_01JBBBBBBBBBBBBBBBBBBBBBBB';
    expect(redactApiKeys(text)).toBe(text);
  });
});

describe('log lines', () => {
  it('never contain the Authorization header', () => {
    const { logger, output } = capturingLogger();
    logger.info({ req: { headers: { authorization: `Bearer ${key}` } } }, 'request');
    logger.info({ headers: { authorization: `Bearer ${key}` } }, 'headers');
    expect(output()).not.toContain(secret.slice(0, 6));
    expect(output()).toContain('[redacted]');
  });

  it('never contain a key placed anywhere else: a message, an error, an unexpected field', () => {
    const { logger, output } = capturingLogger();
    logger.warn(`client sent ${key} in the path`);
    logger.error({ err: new Error(`lookup failed for ${key}`) }, 'failed');
    logger.debug({ whatever: { nested: key } }, 'odd');
    expect(output()).not.toContain(secret.slice(0, 6));
    expect(output().split('\n').filter(Boolean)).toHaveLength(3);
  });
});
