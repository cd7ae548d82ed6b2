import { spawn, type ChildProcess } from 'node:child_process';
import * as path from 'node:path';
import { freePort } from '../../src/embedded/free-port';
import { repoRoot } from '../../src/common/repo-root';
import type { ExitStatus } from './built-service';

// Found from the repository's root, so it resolves from dist/ too (the bench runs this file compiled).
const SCRIPT = path.join(repoRoot(__dirname), 'scripts', 'provision-model-server.js');
const DEFAULT_ALIAS = 'smollm2';
const DEFAULT_CONTEXT_TOKENS = 512;
// Loading the 135M model takes a few seconds; a busy CI machine running Temporal beside it, more.
const READY_TIMEOUT_MS = 120_000;
const READY_POLL_MS = 200;
const PROBE_TIMEOUT_MS = 5_000;
const STOP_GRACE_MS = 5_000;
// Only the end of what the server printed is kept: uvicorn logs a line per request, and a long
// test must not grow the buffer without bound. The tail is what explains a failed start.
const OUTPUT_TAIL_CHARS = 8_000;
// llama-cpp-python's settings are pydantic settings: every one of them (MODEL, API_KEY, N_CTX,
// CONFIG_FILE, and HOST/PORT, which uvicorn.run even prefers to the flags) is read from the
// environment when the command line leaves it out. The server gets only what Python itself needs.
const PASSED_ENV = ['PATH', 'HOME', 'TMPDIR', 'LANG', 'LC_ALL'];

export interface ModelServerOptions {
  /** The context window, prompt and completion together (n_ctx). */
  contextTokens?: number;
  /** The model name the server answers to in `model` (model_alias). */
  alias?: string;
  /** A free port is picked unless one is given. */
  port?: number;
}

interface ProvisionedServer {
  python: string;
  model: string;
}

/**
 * A real model, SmolLM2-135M-Instruct, behind llama-cpp-python's OpenAI-compatible server on
 * loopback, for tests that need the provider to tokenise, truncate and take its time as a real one
 * does. scripts/provision-model-server.js builds it into .tools/ (npm test's pretest does; a cold
 * compile takes minutes, later calls a second or two).
 */
export class ModelServer {
  readonly baseUrl: string;
  private child: ChildProcess | undefined;
  private exited: Promise<ExitStatus> = Promise.resolve({ code: null, signal: null });
  private running = false;
  private output = '';

  private constructor(
    private readonly provisioned: ProvisionedServer,
    readonly port: number,
    readonly alias: string,
    readonly contextTokens: number,
  ) {
    this.baseUrl = `http://127.0.0.1:${port}/v1`;
  }

  /** Starts the server and resolves once it answers GET /v1/models. */
  static async start(options: ModelServerOptions = {}): Promise<ModelServer> {
    const provisioned = await provision();
    const port = options.port ?? (await freePort());
    const server = new ModelServer(provisioned, port, options.alias ?? DEFAULT_ALIAS, options.contextTokens ?? DEFAULT_CONTEXT_TOKENS);
    await server.launch();
    return server;
  }

  get alive(): boolean {
    return this.running;
  }

  /** The end of what the server printed since its last start. */
  get log(): string {
    return this.output;
  }

  /** How many tokens the model's tokenizer makes of `text` (the server's /extras/tokenize/count). */
  async countTokens(text: string): Promise<number> {
    const response = await fetch(`http://127.0.0.1:${this.port}/extras/tokenize/count`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ input: text }),
    });
    if (response.status !== 200) throw new Error(`tokenize/count answered ${response.status}: ${await response.text()}`);
    return ((await response.json()) as { count: number }).count;
  }

  /** SIGTERM, then SIGKILL if it has not exited after a few seconds (uvicorn waits for open requests). */
  async stop(): Promise<void> {
    if (!this.alive) {
      await this.exited;
      return;
    }
    this.child?.kill('SIGTERM');
    const timer = setTimeout(() => this.child?.kill('SIGKILL'), STOP_GRACE_MS);
    await this.exited;
    clearTimeout(timer);
  }

  /** SIGKILL now: the provider dies mid-request, as a crashed or preempted one does. */
  async kill(): Promise<void> {
    if (this.alive) this.child?.kill('SIGKILL');
    await this.exited;
  }

  /** Starts it again on the same port with the same options, after a stop or kill (stopping it first if it runs). */
  async restart(): Promise<void> {
    await this.stop();
    await this.launch();
  }

  private async launch(): Promise<void> {
    this.output = '';
    const args = [
      '-m', 'llama_cpp.server',
      '--model', this.provisioned.model,
      '--model_alias', this.alias,
      '--n_ctx', String(this.contextTokens),
      // One thread for generation and one for the prompt: the tests' Temporal server and workers
      // keep the machine's other core.
      '--n_threads', '1',
      '--n_threads_batch', '1',
      // Without it llama.cpp prints the model's whole metadata and timings for every request.
      '--verbose', 'False',
      '--host', '127.0.0.1',
      '--port', String(this.port),
    ];
    const env: Record<string, string> = { PYTHONUNBUFFERED: '1' };
    for (const name of PASSED_ENV) if (process.env[name] !== undefined) env[name] = process.env[name] as string;
    const child = spawn(this.provisioned.python, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    this.child = child;
    this.running = true;
    this.exited = new Promise<ExitStatus>((resolve) => {
      child.once('exit', (code, signal) => resolve({ code, signal }));
      // A python that cannot be run at all ends in 'error' and never in 'exit'.
      child.once('error', (error) => {
        this.keep(`could not run ${this.provisioned.python}: ${error.message}\n`);
        resolve({ code: null, signal: null });
      });
    }).then((status) => {
      this.running = false;
      return status;
    });
    child.stdout?.on('data', (chunk: Buffer) => this.keep(chunk.toString('utf8')));
    child.stderr?.on('data', (chunk: Buffer) => this.keep(chunk.toString('utf8')));
    await this.waitUntilReady();
  }

  private keep(text: string): void {
    this.output = (this.output + text).slice(-OUTPUT_TAIL_CHARS);
  }

  private async waitUntilReady(): Promise<void> {
    const deadline = Date.now() + READY_TIMEOUT_MS;
    while (!(await this.answersModels())) {
      if (!this.alive) {
        await this.exited;
        throw new Error(`the model server on port ${this.port} exited before it was ready; its output:\n${this.output}`);
      }
      if (Date.now() > deadline) {
        await this.kill();
        throw new Error(`the model server on port ${this.port} did not answer GET /v1/models within ${READY_TIMEOUT_MS} ms; its output:\n${this.output}`);
      }
      await new Promise((resolve) => setTimeout(resolve, READY_POLL_MS));
    }
  }

  /** Whether this server, not some other listener on the port, lists the model under its alias. */
  private async answersModels(): Promise<boolean> {
    try {
      const response = await fetch(`${this.baseUrl}/models`, { signal: AbortSignal.timeout(PROBE_TIMEOUT_MS) });
      const body = (await response.json()) as { data?: Array<{ id?: string }> };
      return response.status === 200 && (body.data ?? []).some((model) => model.id === this.alias);
    } catch {
      return false;
    }
  }
}

/**
 * Runs the provision script in a child Node process, as the other fixtures do: a cold compile
 * blocks on spawnSync for minutes, which must not freeze jest's own process meanwhile. Its progress
 * goes to stderr.
 */
function provision(): Promise<ProvisionedServer> {
  const code = `require(${JSON.stringify(SCRIPT)}).provisionModelServer({ log: (message) => process.stderr.write('provision-model-server: ' + message + '\\n') })
    .then(({ python, model }) => process.stdout.write(JSON.stringify({ python, model })), (error) => { process.stderr.write(error.message + '\\n'); process.exitCode = 1; });`;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['-e', code], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
      process.stderr.write(chunk);
    });
    child.once('error', reject);
    child.once('exit', (status) => {
      if (status === 0) resolve(JSON.parse(stdout) as ProvisionedServer);
      else reject(new Error(`scripts/provision-model-server.js failed (exit ${status}):\n${stderr.trim().split('\n').slice(-8).join('\n')}`));
    });
  });
}
