import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Command } from 'commander';
import { type CustomerCommandDeps, nodeCustomerCommandDeps } from '../../src/cli/customer/command-deps';
import { registerCustomerCommands } from '../../src/cli/customer/commands';
import { ExitCode } from '../../src/cli/exit-codes';
import { AssayHarness } from '../support/assay-harness';

// `assay summarize --batch` against the embedded stack: a JSONL file becomes one batch, summarized
// by the built-in model, and every item comes back as one JSON line in the file's order.

const LINES = 20;

let harness: AssayHarness;
let apiKey: string;
let dir: string;
let itemsFile: string;

beforeAll(async () => {
  harness = await AssayHarness.start();
  apiKey = (await harness.issueKey('acme', 'test')).key;
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'assay-cli-batch-'));
  itemsFile = path.join(dir, 'items.jsonl');
  // Odd lines name their key; even lines are keyed by their line number.
  const lines = Array.from({ length: LINES }, (_, index) => {
    const text = `Report ${index + 1}: the council approved the plan for line ${index + 1}. It opens in spring. Critics called it costly.`;
    return JSON.stringify(index % 2 === 0 ? { key: `doc-${index + 1}`, text } : { text, max_sentences: 1 });
  });
  fs.writeFileSync(itemsFile, `${lines.join('\n')}\n`);
});

afterAll(async () => {
  await harness?.stop();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

/** Runs `assay <args>` in-process as the binary does, reading real files, and records what it printed and its exit code. */
async function assay(args: string[]): Promise<{ exitCodes: number[]; stdout: string; stderr: string }> {
  const run = { exitCodes: [] as number[], stdout: '', stderr: '' };
  const deps: CustomerCommandDeps = {
    ...nodeCustomerCommandDeps(),
    stdout: { write: (text) => (run.stdout += text) },
    stderr: { write: (text) => (run.stderr += text), isTTY: false },
    exit: (code) => run.exitCodes.push(code),
    env: { ASSAY_API_KEY: apiKey, ASSAY_BASE_URL: harness.baseUrl },
  };
  const program = new Command('assay').exitOverride();
  registerCustomerCommands(program, deps);
  await program.parseAsync(args, { from: 'user' });
  return run;
}

function outputLines(stdout: string): Array<Record<string, unknown>> {
  return stdout
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

describe('assay summarize --batch', () => {
  it("summarizes every line as one batch, prints each item's summary in the file's order, and its re-run command finds the same batch", async () => {
    const run = await assay(['summarize', '--batch', itemsFile]);

    expect(run.exitCodes).toEqual([ExitCode.Succeeded]);
    const lines = outputLines(run.stdout);
    expect(lines.map((line) => line.key)).toEqual(Array.from({ length: LINES }, (_, index) => (index % 2 === 0 ? `doc-${index + 1}` : String(index + 1))));
    expect(lines.every((line) => line.status === 'succeeded' && typeof line.summary === 'string' && line.summary.trim() !== '')).toBe(true);
    expect(new Set(lines.map((line) => line.task_id)).size).toBe(LINES);
    expect(run.stderr).toMatch(/^Batch batch_\w+ \(20 items\)\. Ctrl-C stops the wait, not the batch/);

    const command = run.stderr.split('\n').find((line) => line.startsWith('  assay summarize --batch '));
    const again = await assay(command!.trim().split(' ').slice(1));

    expect(again.exitCodes).toEqual([ExitCode.Succeeded]);
    expect(again.stdout).toBe(run.stdout);
  }, 180_000);
});
