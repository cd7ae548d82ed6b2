import { readFile } from 'node:fs/promises';
import { AssayClient, type AssayClientOptions } from '../../sdk';
import type { CommandEnd, TextOutput } from '../command-runner';
import type { InputSources } from './input';

/** Everything the customer commands touch outside themselves, so tests can run them in-process. */
export interface CustomerCommandDeps extends InputSources, CommandEnd {
  createClient(options: AssayClientOptions): AssayClient;
  stdout: TextOutput;
  env: Record<string, string | undefined>;
}

export function nodeCustomerCommandDeps(): CustomerCommandDeps {
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
