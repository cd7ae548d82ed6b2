import * as http from 'node:http';
import { OpenAiCompatibleProvider } from '../../../../activities/summarize/openai-compatible-provider';
import { ProviderContextExceededError, ProviderRejectedError, ProviderUnavailableError } from '../../../../activities/summarize/provider';
import { closeNow, listenOnLoopback, onBody } from '../../../support/loopback-server';

interface Received {
  url: string;
  authorization?: string;
  body: {
    model: string;
    temperature: number;
    max_tokens?: number;
    messages: Array<{ role: string; content: string }>;
  };
}

interface Answer {
  status: number;
  headers?: Record<string, string>;
  body: string;
}

/** A chat-completions endpoint on loopback that answers each request with the next scripted answer and keeps what it received. */
class CompletionsEndpoint {
  readonly received: Received[] = [];
  private readonly answers: Answer[] = [];
  private readonly server = http.createServer((req, res) => {
    onBody(req, (body) => {
      this.received.push({ url: req.url ?? '', authorization: req.headers.authorization, body: JSON.parse(body) as Received['body'] });
      const answer = this.answers.shift() ?? completion('A summary.');
      res.writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers });
      res.end(answer.body);
    });
  });

  listen(): Promise<number> {
    return listenOnLoopback(this.server);
  }

  answer(...answers: Answer[]): void {
    this.answers.push(...answers);
  }

  close(): Promise<void> {
    return closeNow(this.server);
  }
}

function completion(content: string, usage?: object): Answer {
  return { status: 200, body: JSON.stringify({ choices: [{ message: { role: 'assistant', content } }], ...(usage ? { usage } : {}) }) };
}

let endpoint: CompletionsEndpoint;
let baseUrl: string;

beforeEach(async () => {
  endpoint = new CompletionsEndpoint();
  baseUrl = `http://127.0.0.1:${await endpoint.listen()}/v1`;
});

afterEach(async () => {
  await endpoint.close();
});

function provider(apiKey?: string): OpenAiCompatibleProvider {
  return new OpenAiCompatibleProvider({ baseUrl, apiKey, model: 'llama-3.1-8b', timeoutMs: 5000 });
}

async function rejection(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  throw new Error('the call succeeded');
}

describe('OpenAiCompatibleProvider.complete', () => {
  it("posts the text to the model's chat completions with a chunk instruction, and returns the trimmed answer", async () => {
    endpoint.answer(completion('  The council approved the plan.\n'));
    const result = await provider().complete({ kind: 'chunk', text: 'The council met on Tuesday. It approved the plan.' });
    expect(result).toEqual({ summary: 'The council approved the plan.' });
    const [request] = endpoint.received;
    expect(request.url).toBe('/v1/chat/completions');
    expect(request.authorization).toBeUndefined();
    expect(request.body.model).toBe('llama-3.1-8b');
    expect(request.body.temperature).toBe(0);
    expect(request.body).not.toHaveProperty('max_tokens');
    expect(request.body.messages).toEqual([
      { role: 'system', content: expect.stringMatching(/^Summarise the user's text in a few sentences\./) },
      { role: 'user', content: 'The council met on Tuesday. It approved the plan.' },
    ]);
    expect(request.body.messages[0].content).not.toMatch(/combine/i);
  });

  it('sends max_tokens when asked for a limit', async () => {
    await provider().complete({ kind: 'chunk', text: 'Text.', maxOutputTokens: 256 });
    expect(endpoint.received[0].body.max_tokens).toBe(256);
  });

  it("sends the combine instruction for a combine call, and 'at most N sentences' when maxSentences is given", async () => {
    await provider().complete({ kind: 'combine', text: 'First part.\n\nSecond part.', maxSentences: 3 });
    await provider().complete({ kind: 'chunk', text: 'Text.', maxSentences: 2 });
    const [combine, chunk] = endpoint.received.map((request) => request.body.messages[0].content);
    expect(combine).toMatch(/summaries of consecutive parts of one document/);
    expect(combine).toMatch(/Combine them into one summary of the whole document in at most 3 sentences\./);
    expect(chunk).toMatch(/^Summarise the user's text in at most 2 sentences\./);
    expect(endpoint.received[0].body.messages[1]).toEqual({ role: 'user', content: 'First part.\n\nSecond part.' });
  });

  it('sends the API key as a bearer token, and to base URLs with a trailing slash too', async () => {
    baseUrl = `${baseUrl}/`;
    await provider('sk-test').complete({ kind: 'chunk', text: 'Text.' });
    expect(endpoint.received[0].authorization).toBe('Bearer sk-test');
    expect(endpoint.received[0].url).toBe('/v1/chat/completions');
  });

  it('returns the usage the provider reports as input and output tokens, and none when it reports none', async () => {
    endpoint.answer(completion('One.', { prompt_tokens: 812, completion_tokens: 64, total_tokens: 876 }), completion('Two.'), completion('Three.', { prompt_tokens: 10 }));
    expect(await provider().complete({ kind: 'chunk', text: 'Text.' })).toStrictEqual({ summary: 'One.', usage: { input_tokens: 812, output_tokens: 64 } });
    expect(await provider().complete({ kind: 'chunk', text: 'Text.' })).toStrictEqual({ summary: 'Two.' });
    expect(await provider().complete({ kind: 'chunk', text: 'Text.' })).toStrictEqual({ summary: 'Three.' });
  });

  it('throws ProviderUnavailableError with the Retry-After of a 429', async () => {
    endpoint.answer({ status: 429, headers: { 'retry-after': '7' }, body: '{"error":"rate limited"}' });
    const error = await rejection(provider().complete({ kind: 'chunk', text: 'Text.' }));
    expect(error).toBeInstanceOf(ProviderUnavailableError);
    expect((error as ProviderUnavailableError).retryAfterMs).toBe(7000);
    expect(error.message).toMatch(/HTTP 429/);
  });

  it('throws ProviderUnavailableError on a 503, with its Retry-After when it gives one', async () => {
    endpoint.answer({ status: 503, headers: { 'retry-after': '120' }, body: 'down' }, { status: 503, body: 'down' }, { status: 500, body: 'broken' });
    const withDelay = await rejection(provider().complete({ kind: 'chunk', text: 'Text.' }));
    expect(withDelay).toBeInstanceOf(ProviderUnavailableError);
    expect((withDelay as ProviderUnavailableError).retryAfterMs).toBe(120_000);
    const withoutDelay = await rejection(provider().complete({ kind: 'chunk', text: 'Text.' }));
    expect(withoutDelay).toBeInstanceOf(ProviderUnavailableError);
    expect((withoutDelay as ProviderUnavailableError).retryAfterMs).toBeUndefined();
    expect(await rejection(provider().complete({ kind: 'chunk', text: 'Text.' }))).toBeInstanceOf(ProviderUnavailableError);
  });

  it.each([400, 413, 422])('throws ProviderRejectedError on a %p', async (status) => {
    endpoint.answer({ status, body: '{"error":{"message":"Invalid value for \'temperature\'","code":null}}' });
    const error = await rejection(provider().complete({ kind: 'chunk', text: 'Text.' }));
    expect(error).toBeInstanceOf(ProviderRejectedError);
    expect(error).not.toBeInstanceOf(ProviderContextExceededError);
    expect(error).not.toBeInstanceOf(ProviderUnavailableError);
    expect(error.message).toMatch(new RegExp(`HTTP ${status}`));
  });

  it("throws ProviderContextExceededError, with the window the provider states, on a 400 saying the text is longer than the model's context", async () => {
    // llama-cpp-python's server's answer, as the real-model tests' server sends it.
    endpoint.answer({
      status: 400,
      body: '{"error":{"message":"This model\'s maximum context length is 2048 tokens. However, you requested 6165 tokens (5909 in the messages, 256 in the completion). Please reduce the length of the messages or completion.","type":"invalid_request_error","param":"messages","code":"context_length_exceeded"}}',
    });
    const error = await rejection(provider().complete({ kind: 'chunk', text: 'Text.' }));
    expect(error).toBeInstanceOf(ProviderContextExceededError);
    expect((error as ProviderContextExceededError).contextTokens).toBe(2048);
    expect(error.message).toBe("summarisation provider rejected the input as longer than the model's context window, which it says is 2048 tokens (HTTP 400)");
  });

  it('throws ProviderContextExceededError without a window when the provider does not state it', async () => {
    endpoint.answer({ status: 400, body: '{"error":{"code":400,"message":"the request exceeds the available context size. try increasing the context size or enable context shift","type":"invalid_request_error"}}' });
    const error = await rejection(provider().complete({ kind: 'chunk', text: 'Text.' }));
    expect(error).toBeInstanceOf(ProviderContextExceededError);
    expect((error as ProviderContextExceededError).contextTokens).toBeUndefined();
    expect(error.message).toBe("summarisation provider rejected the input as longer than the model's context window (HTTP 400)");
  });

  it('throws ProviderUnavailableError for an answer without a summary', async () => {
    endpoint.answer(completion('   '), { status: 200, body: '{"choices":[]}' }, { status: 200, body: 'not json' });
    for (let call = 0; call < 3; call++) {
      const error = await rejection(provider().complete({ kind: 'chunk', text: 'Text.' }));
      expect(error).toBeInstanceOf(ProviderUnavailableError);
      expect(error.message).toMatch(/no summary/);
    }
  });

  it('throws ProviderUnavailableError when the server is unreachable', async () => {
    await endpoint.close();
    const error = await rejection(provider().complete({ kind: 'chunk', text: 'Text.' }));
    expect(error).toBeInstanceOf(ProviderUnavailableError);
    expect(error.message).toMatch(/unreachable/);
    expect((error as ProviderUnavailableError).retryAfterMs).toBeUndefined();
  });

  it("passes the caller's abort through as it is, not as an unavailable provider", async () => {
    const controller = new AbortController();
    controller.abort(new Error('cancelled by the workflow'));
    const error = await rejection(provider().complete({ kind: 'chunk', text: 'Text.', signal: controller.signal }));
    expect(error).not.toBeInstanceOf(ProviderUnavailableError);
    expect(error.message).toBe('cancelled by the workflow');
  });
});

describe('OpenAiCompatibleProvider.summarize', () => {
  it('asks for a chunk summary of at most maxSentences and returns its text', async () => {
    endpoint.answer(completion('Short.', { prompt_tokens: 5, completion_tokens: 2 }));
    expect(await provider().summarize('Long text.', { maxSentences: 4 })).toBe('Short.');
    expect(endpoint.received[0].body.messages[0].content).toMatch(/^Summarise the user's text in at most 4 sentences\./);
  });
});
