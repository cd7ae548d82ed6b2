import { readFile } from 'node:fs/promises';
import { AssayClient, type AssayClientOptions } from '../../sdk';
import type { ExitCode } from './client-exit-codes';
import type { InputSources } from './client-input';
import type { TextOutput } from './client-spinner';

/** Everything the client commands touch outside themselves, so tests can run them in-process. */
export interface ClientCommandDeps extends InputSources {
  createClient(options: AssayClientOptions): AssayClient;
  stdout: TextOutput;
  stderr: TextOutput;
  /** Ends the command with this code; also called for commander's usage errors, which then throw. */
  exit(code: ExitCode): void;
  env: Record<string, string | undefined>;
}

export function nodeClientCommandDeps(): ClientCommandDeps {
  return {
    createClient: (options) => new AssayClient(options),
    readStdin: () => readAll(process.stdin),
    stdinIsTTY: process.stdin.isTTY === true,
    readFile: (path) => readFile(path, 'utf8'),
    stdout: process.stdout,
    stderr: process.stderr,
    exit: (code) => process.exit(code),
    env: process.env,
  };
}

async function readAll(stream: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
  return Buffer.concat(chunks).toString('utf8');
}
