import { AppConfig, InvalidConfigError } from '../../../../src/common/config/app-config';
import { largestOutputTokens } from '../../../../src/contract';

const HOUR = 60 * 60 * 1000;
const BASE_URL = 'http://127.0.0.1:8081/v1';

function withModels(declarations: unknown, env: NodeJS.ProcessEnv = {}): AppConfig {
  return new AppConfig({ ASSAY_MODELS: JSON.stringify(declarations), ...env });
}

/** The message a user sees for a configuration that is refused (and that it is an InvalidConfigError). */
function refusal(env: NodeJS.ProcessEnv): string {
  try {
    new AppConfig(env);
  } catch (error) {
    expect(error).toBeInstanceOf(InvalidConfigError);
    return (error as Error).message;
  }
  throw new Error('the configuration was accepted');
}

describe('model catalog', () => {
  it('offers only the built-in extractive model, as the default, without settings', () => {
    const { models } = new AppConfig({});
    expect(models.names).toEqual(['extractive']);
    expect(models.defaultName).toBe('extractive');
    expect(models.remoteModels).toEqual([]);
    expect(models.taskModel()).toStrictEqual({ name: 'extractive', kind: 'extractive' });
    expect(models.taskModel('extractive')).toStrictEqual({ name: 'extractive', kind: 'extractive' });
  });

  it('fills the defaults of a declaration that gives only a name and a base URL', () => {
    const { models } = withModels([{ name: 'llama', base_url: BASE_URL }]);
    expect(models.names).toEqual(['extractive', 'llama']);
    expect(models.defaultName).toBe('extractive');
    expect(models.remote('llama')).toEqual({
      name: 'llama',
      provider: 'openai-compatible',
      baseUrl: BASE_URL,
      providerModel: 'llama',
      apiKey: undefined,
      contextTokens: 4096,
      maxOutputTokens: 256,
      concurrency: 4,
      sandboxConcurrency: 4,
      requestsPerMinute: undefined,
      timeoutMs: 120_000,
      unavailableWaitMs: HOUR,
      pricePer1kInputTokens: undefined,
      pricePer1kOutputTokens: undefined,
    });
  });

  it('defaults the answer to 256 tokens, or the largest a small context allows', () => {
    const { models } = withModels([
      { name: 'small', base_url: BASE_URL, context_tokens: 512 },
      { name: 'large', base_url: BASE_URL, context_tokens: 128_000 },
    ]);
    expect(largestOutputTokens(512)).toBeLessThan(256);
    expect(models.remote('small')?.maxOutputTokens).toBe(largestOutputTokens(512));
    expect(models.remote('large')?.maxOutputTokens).toBe(256);
  });

  it('takes every field a declaration gives, the built-in first in the list and the declared order after it', () => {
    const { models } = withModels(
      [
        {
          name: 'gpt',
          base_url: 'https://api.example.com/v1',
          model: 'gpt-4o-mini-2024-07-18',
          api_key_env: 'EXAMPLE_API_KEY',
          context_tokens: 16_000,
          max_output_tokens: 500,
          concurrency: 12,
          sandbox_concurrency: 8,
          requests_per_minute: 300,
          timeout_ms: 30_000,
          unavailable_wait: '30 minutes',
          price_per_1k_input_tokens: 0.15,
          price_per_1k_output_tokens: 0.6,
        },
        { name: 'local', base_url: BASE_URL },
      ],
      { EXAMPLE_API_KEY: 'sk-test-key' },
    );
    expect(models.names).toEqual(['extractive', 'gpt', 'local']);
    expect(models.remote('gpt')).toEqual({
      name: 'gpt',
      provider: 'openai-compatible',
      baseUrl: 'https://api.example.com/v1',
      providerModel: 'gpt-4o-mini-2024-07-18',
      apiKey: 'sk-test-key',
      contextTokens: 16_000,
      maxOutputTokens: 500,
      concurrency: 12,
      sandboxConcurrency: 8,
      requestsPerMinute: 300,
      timeoutMs: 30_000,
      unavailableWaitMs: 30 * 60 * 1000,
      pricePer1kInputTokens: 0.15,
      pricePer1kOutputTokens: 0.6,
    });
  });

  it('makes a declared model the default when ASSAY_DEFAULT_MODEL names it', () => {
    const { models } = withModels([{ name: 'llama', base_url: BASE_URL, context_tokens: 8192, max_output_tokens: 300, concurrency: 2 }], { ASSAY_DEFAULT_MODEL: 'llama' });
    expect(models.defaultName).toBe('llama');
    expect(models.names[0]).toBe('extractive');
    expect(models.taskModel()).toStrictEqual({ name: 'llama', kind: 'remote', contextTokens: 8192, maxOutputTokens: 300, concurrency: 2, unavailableWaitMs: HOUR });
  });

  it("gives a task its model's figures only, a new object each time, and undefined for an unknown name", () => {
    const { models } = withModels([{ name: 'llama', base_url: BASE_URL, api_key_env: 'LLAMA_KEY', unavailable_wait: '10m' }], { LLAMA_KEY: 'secret-value' });
    const view = models.taskModel('llama');
    expect(view).toStrictEqual({ name: 'llama', kind: 'remote', contextTokens: 4096, maxOutputTokens: 256, concurrency: 4, unavailableWaitMs: 10 * 60 * 1000 });
    expect(JSON.stringify(view)).not.toContain('secret-value');
    // What one task was given cannot change what the next is given.
    (view as { contextTokens: number }).contextTokens = 1;
    expect(models.taskModel('llama')).toMatchObject({ contextTokens: 4096 });
    expect(models.taskModel('gpt-5')).toBeUndefined();
    expect(models.remote('gpt-5')).toBeUndefined();
    expect(models.remote('extractive')).toBeUndefined();
  });

  describe('the legacy OPENAI_* settings', () => {
    const legacy = { SUMMARIZER_PROVIDER: 'openai-compatible', OPENAI_BASE_URL: BASE_URL, OPENAI_MODEL: 'qwen2.5:7b' };

    it('declare one model named OPENAI_MODEL, the default, with a context of 8192 and a concurrency of 100', () => {
      const { models } = new AppConfig({ ...legacy, OPENAI_API_KEY: 'sk-legacy', OPENAI_TIMEOUT_MS: '45000' });
      expect(models.names).toEqual(['extractive', 'qwen2.5:7b']);
      expect(models.defaultName).toBe('qwen2.5:7b');
      expect(models.taskModel()).toStrictEqual({ name: 'qwen2.5:7b', kind: 'remote', contextTokens: 8192, maxOutputTokens: 256, concurrency: 100, unavailableWaitMs: HOUR });
      expect(models.remote('qwen2.5:7b')).toMatchObject({ baseUrl: BASE_URL, providerModel: 'qwen2.5:7b', apiKey: 'sk-legacy', timeoutMs: 45_000 });
    });

    it('declare nothing while SUMMARIZER_PROVIDER is extractive', () => {
      const { models } = new AppConfig({ OPENAI_BASE_URL: BASE_URL, OPENAI_MODEL: 'qwen2.5:7b' });
      expect(models.names).toEqual(['extractive']);
      expect(models.defaultName).toBe('extractive');
    });

    it('sit beside ASSAY_MODELS, and ASSAY_DEFAULT_MODEL still picks the default', () => {
      const { models } = new AppConfig({ ...legacy, ASSAY_MODELS: JSON.stringify([{ name: 'llama', base_url: BASE_URL }]), ASSAY_DEFAULT_MODEL: 'extractive' });
      expect(models.names).toEqual(['extractive', 'llama', 'qwen2.5:7b']);
      expect(models.defaultName).toBe('extractive');
    });

    it('may not declare a name ASSAY_MODELS declares too', () => {
      expect(refusal({ ...legacy, ASSAY_MODELS: JSON.stringify([{ name: 'qwen2.5:7b', base_url: BASE_URL }]) })).toBe(
        'Invalid configuration:\n  ASSAY_MODELS: declares "qwen2.5:7b", which OPENAI_MODEL declares too',
      );
    });
  });

  describe('refuses, with one line per problem naming the setting', () => {
    it('an api_key_env naming a variable that is not set', () => {
      expect(refusal({ ASSAY_MODELS: JSON.stringify([{ name: 'gpt', base_url: BASE_URL, api_key_env: 'GPT_API_KEY' }]) })).toBe(
        'Invalid configuration:\n  ASSAY_MODELS[0].api_key_env: GPT_API_KEY is not set',
      );
      expect(refusal({ ASSAY_MODELS: JSON.stringify([{ name: 'gpt', base_url: BASE_URL, api_key_env: 'GPT_API_KEY' }]), GPT_API_KEY: '' })).toContain('GPT_API_KEY is not set');
    });

    it('without printing a key that is set, nor one written into the declaration', () => {
      const message = refusal({
        ASSAY_MODELS: JSON.stringify([
          { name: 'gpt', base_url: BASE_URL, api_key_env: 'GPT_API_KEY', concurrency: 0 },
          { name: 'other', base_url: BASE_URL, api_key: 'sk-inline-secret-1234' },
        ]),
        GPT_API_KEY: 'sk-env-secret-5678',
      });
      expect(message).toMatch(/^ {2}ASSAY_MODELS\[0\]\.concurrency: /m);
      expect(message).toMatch(/^ {2}ASSAY_MODELS\[1\]\.\(entry\): .*"api_key"/m);
      expect(message).not.toContain('sk-env-secret-5678');
      expect(message).not.toContain('sk-inline-secret-1234');
    });

    it('an ASSAY_DEFAULT_MODEL that names no declared model', () => {
      expect(refusal({ ASSAY_DEFAULT_MODEL: 'llama' })).toBe('Invalid configuration:\n  ASSAY_DEFAULT_MODEL: "llama" is not declared in ASSAY_MODELS');
      expect(refusal({ ASSAY_MODELS: JSON.stringify([{ name: 'llama', base_url: BASE_URL }]), ASSAY_DEFAULT_MODEL: 'Llama' })).toBe(
        'Invalid configuration:\n  ASSAY_DEFAULT_MODEL: "Llama" is not declared in ASSAY_MODELS',
      );
    });

    it('a name declared twice', () => {
      expect(
        refusal({
          ASSAY_MODELS: JSON.stringify([
            { name: 'llama', base_url: BASE_URL },
            { name: 'gpt', base_url: BASE_URL },
            { name: 'llama', base_url: 'http://127.0.0.1:9000/v1' },
          ]),
        }),
      ).toBe('Invalid configuration:\n  ASSAY_MODELS[2].name: "llama" is declared twice');
    });

    it('a declaration named after the built-in model', () => {
      expect(refusal({ ASSAY_MODELS: JSON.stringify([{ name: 'extractive', base_url: BASE_URL }]) })).toBe(
        'Invalid configuration:\n  ASSAY_MODELS[0].name: "extractive" is the built-in model',
      );
    });

    it('ASSAY_MODELS that is not JSON', () => {
      expect(refusal({ ASSAY_MODELS: "[{name: 'llama'}]" })).toBe('Invalid configuration:\n  ASSAY_MODELS: is not JSON (a list of model objects: [{"name":"…","base_url":"…"}])');
    });

    it.each([['{"name":"llama","base_url":"http://127.0.0.1:8081/v1"}'], ['"llama"'], ['null']])('ASSAY_MODELS that is not a list: %s', (value) => {
      expect(refusal({ ASSAY_MODELS: value })).toBe('Invalid configuration:\n  ASSAY_MODELS: must be a JSON list of model objects');
    });

    it('an unknown field', () => {
      const message = refusal({ ASSAY_MODELS: JSON.stringify([{ name: 'llama', base_url: BASE_URL, context: 8192 }]) });
      expect(message.split('\n')).toEqual(['Invalid configuration:', expect.stringMatching(/^ {2}ASSAY_MODELS\[0\]\.\(entry\): .*"context"/)]);
    });

    it('a max_output_tokens too large for the context, saying the largest', () => {
      const largest = largestOutputTokens(4096);
      expect(refusal({ ASSAY_MODELS: JSON.stringify([{ name: 'llama', base_url: BASE_URL, max_output_tokens: largest + 1 }]) })).toBe(
        `Invalid configuration:\n  ASSAY_MODELS[0].max_output_tokens: at most ${largest} for a context of 4096 tokens`,
      );
      expect(withModels([{ name: 'llama', base_url: BASE_URL, max_output_tokens: largest }]).models.remote('llama')?.maxOutputTokens).toBe(largest);
    });

    it('fields out of their bounds, each on its own line', () => {
      const message = refusal({
        ASSAY_MODELS: JSON.stringify([{ name: 'bad name', base_url: 'ftp://example.com', context_tokens: 100, concurrency: 1001, timeout_ms: 10, unavailable_wait: 'soon' }]),
      });
      const lines = message.split('\n');
      expect(lines[0]).toBe('Invalid configuration:');
      for (const field of ['name', 'base_url', 'context_tokens', 'concurrency', 'timeout_ms', 'unavailable_wait']) {
        expect(lines).toContainEqual(expect.stringMatching(new RegExp(`^ {2}ASSAY_MODELS\\[0\\]\\.${field}: `)));
      }
      expect(lines).toContain('  ASSAY_MODELS[0].base_url: must be an http(s) URL, such as http://127.0.0.1:8081/v1');
    });

    it('every problem of several declarations at once', () => {
      const message = refusal({
        ASSAY_MODELS: JSON.stringify([
          { name: 'extractive', base_url: BASE_URL },
          { name: 'gpt', base_url: BASE_URL, api_key_env: 'MISSING_KEY' },
        ]),
        ASSAY_DEFAULT_MODEL: 'gpt',
      });
      expect(message.split('\n')).toEqual([
        'Invalid configuration:',
        '  ASSAY_MODELS[0].name: "extractive" is the built-in model',
        '  ASSAY_MODELS[1].api_key_env: MISSING_KEY is not set',
        '  ASSAY_DEFAULT_MODEL: "gpt" is not declared in ASSAY_MODELS',
      ]);
    });
  });
});
