'use strict';
// `npm run model-server`: a real model on this machine for `npm start` to summarise with.
// Provisions llama-cpp-python's server and SmolLM2-135M-Instruct (scripts/provision-model-server.js;
// the first run compiles for minutes), then runs the server in the foreground on
// 127.0.0.1:${MODEL_SERVER_PORT:-8081} with the model named `smollm2` and a context of
// ${MODEL_SERVER_CONTEXT:-2048} tokens, and prints the ASSAY_MODELS setting to start Assay with (docs/models.md). Ctrl-C stops it.
// Node built-ins only, like the other scripts.

const { spawn } = require('node:child_process');
const { provisionModelServer } = require('./provision-model-server');

const DEFAULT_PORT = '8081';
const DEFAULT_CONTEXT = '2048';
const ALIAS = 'smollm2';
const READY_POLL_MS = 200;
// llama-cpp-python reads every setting it has (HOST and PORT, which uvicorn even prefers to the
// flags, MODEL, API_KEY, N_CTX, CONFIG_FILE…) from the environment when the command line leaves it
// out; a shell that exports PORT for `npm start` would move the server. It gets only what Python
// needs.
const PASSED_ENV = ['PATH', 'HOME', 'TMPDIR', 'LANG', 'LC_ALL'];

function say(message) {
  process.stderr.write(`model-server: ${message}\n`);
}

function positiveInteger(name, fallback) {
  const value = process.env[name] ?? fallback;
  if (!/^[1-9][0-9]*$/.test(value)) throw new Error(`${name}=${value} is not a positive integer`);
  return value;
}

async function main() {
  const port = positiveInteger('MODEL_SERVER_PORT', DEFAULT_PORT);
  const contextTokens = positiveInteger('MODEL_SERVER_CONTEXT', DEFAULT_CONTEXT);
  const { python, model, route } = await provisionModelServer({ log: say });
  say(`${model} on ${python} (route: ${route})`);
  const env = { PYTHONUNBUFFERED: '1' };
  for (const name of PASSED_ENV) if (process.env[name] !== undefined) env[name] = process.env[name];
  const args = ['-m', 'llama_cpp.server', '--model', model, '--model_alias', ALIAS, '--n_ctx', contextTokens, '--verbose', 'False', '--host', '127.0.0.1', '--port', port];
  const server = spawn(python, args, { env, stdio: ['ignore', 'inherit', 'inherit'] });
  let running = true;
  // Ctrl-C reaches the whole process group anyway (uvicorn takes a second SIGINT as "exit now",
  // which an idle server does at once either way); a signal sent to this process alone must reach
  // the server too, and either way this process waits for it to exit.
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.kill(signal));
  server.once('error', (error) => {
    running = false;
    say(`could not run ${python}: ${error.message}`);
    process.exitCode = 1;
  });
  server.once('exit', (code, signal) => {
    running = false;
    if (signal && signal !== 'SIGINT' && signal !== 'SIGTERM') say(`the server was killed by ${signal}`);
    process.exitCode = code ?? (signal === 'SIGINT' || signal === 'SIGTERM' ? 0 : 1);
  });
  const baseUrl = `http://127.0.0.1:${port}/v1`;
  // The line to copy comes once the model is loaded and answering, not before.
  while (running && !(await answers(`${baseUrl}/models`))) await new Promise((resolve) => setTimeout(resolve, READY_POLL_MS));
  const declaration = JSON.stringify([{ name: ALIAS, base_url: baseUrl, context_tokens: Number(contextTokens), concurrency: 1 }]);
  if (running) say(`ready at ${baseUrl}; start Assay with ASSAY_MODELS='${declaration}' npm start`);
}

async function answers(url) {
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(READY_POLL_MS * 10) });
    await response.arrayBuffer();
    return response.ok;
  } catch {
    return false;
  }
}

main().catch((error) => {
  say(error.message);
  process.exitCode = 1;
});
