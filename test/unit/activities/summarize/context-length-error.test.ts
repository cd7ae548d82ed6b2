import { contextLengthExceeded } from '../../../../activities/summarize/context-length-error';

// Bodies as the providers send them.
const LLAMA_CPP_PYTHON =
  '{"error":{"message":"This model\'s maximum context length is 2048 tokens. However, you requested 6165 tokens (5909 in the messages, 256 in the completion). Please reduce the length of the messages or completion.","type":"invalid_request_error","param":"messages","code":"context_length_exceeded"}}';
const OPENAI =
  '{"error":{"message":"This model\'s maximum context length is 8192 tokens. However, your messages resulted in 9530 tokens. Please reduce the length of the messages.","type":"invalid_request_error","param":"messages","code":"context_length_exceeded"}}';
const CODE_WITHOUT_FIGURE = '{"error":{"message":"Your input exceeds the context window of this model. Please adjust your input and try again.","type":"invalid_request_error","param":"input","code":"context_length_exceeded"}}';
const VLLM_OLDER =
  '{"object":"error","message":"This model\'s maximum context length is 4096 tokens. However, you requested 4352 tokens (4096 in the messages, 256 in the completion). Please reduce the length of the messages or completion.","type":"BadRequestError","param":null,"code":400}';
const VLLM_NEWER =
  '{"error":{"message":"\'max_tokens\' or \'max_completion_tokens\' is too large: 256. This model\'s maximum context length is 4096 tokens and your request has 3900 input tokens (256 > 4096 - 3900). None","type":"BadRequestError","param":null,"code":400}}';
const LLAMA_SERVER = '{"error":{"code":400,"message":"request (4476 tokens) exceeds the available context size (2048 tokens)","type":"exceed_context_size_error","n_prompt_tokens":4476,"n_ctx":2048}}';
const LLAMA_SERVER_OLDER = '{"error":{"code":400,"message":"the request exceeds the available context size, try increasing it","type":"exceed_context_size_error","n_prompt_tokens":3001,"n_ctx":1024}}';
const LLAMA_SERVER_OLDEST = '{"error":{"code":400,"message":"the request exceeds the available context size. try increasing the context size or enable context shift","type":"invalid_request_error"}}';

describe('contextLengthExceeded', () => {
  it.each([
    ["llama-cpp-python's server (the tests' llama.cpp)", LLAMA_CPP_PYTHON, 2048],
    ['OpenAI', OPENAI, 8192],
    ['vLLM, older versions', VLLM_OLDER, 4096],
    ['vLLM, newer versions', VLLM_NEWER, 4096],
    ["llama.cpp's llama-server", LLAMA_SERVER, 2048],
    ["llama.cpp's llama-server, n_ctx beside a message without it", LLAMA_SERVER_OLDER, 1024],
  ])('recognises %s and reads the window it states', (_provider, body, contextTokens) => {
    expect(contextLengthExceeded(body)).toEqual({ contextTokens });
  });

  it.each([
    ['the code context_length_exceeded without a figure', CODE_WITHOUT_FIGURE],
    ["llama.cpp's llama-server, oldest versions", LLAMA_SERVER_OLDEST],
    ['a plain-text body', "This model's context window was exceeded: the request exceeds the available context size"],
  ])('recognises %s without a window', (_provider, body) => {
    expect(contextLengthExceeded(body)).toEqual({});
  });

  it.each([
    ['another refusal', '{"error":{"message":"Invalid value for \'temperature\'","type":"invalid_request_error","param":"temperature","code":null}}'],
    ['a string error', '{"error":"model not found"}'],
    ['an empty body', ''],
    ['JSON that is no object', '[1, 2]'],
    ['a plain-text refusal', 'Bad Request'],
  ])('answers undefined for %s', (_case, body) => {
    expect(contextLengthExceeded(body)).toBeUndefined();
  });

  it('ignores a stated window that is no positive whole number', () => {
    expect(contextLengthExceeded('{"error":{"type":"exceed_context_size_error","n_ctx":"lots","message":"too long"}}')).toEqual({});
  });
});
