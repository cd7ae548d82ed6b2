import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** Issues a sandbox key with the operator CLI (`assay keys issue`), as an operator would. */
export async function issueSandboxKey(cli: string, env: NodeJS.ProcessEnv, organization: string): Promise<string> {
  const { stdout } = await run(process.execPath, [cli, 'keys', 'issue', '--org', organization, '--env', 'test', '--json'], { env });
  const issued = JSON.parse(stdout) as { key?: unknown };
  if (typeof issued.key !== 'string') throw new Error(`assay keys issue printed no key: ${stdout}`);
  return issued.key;
}

/** Adds a sandbox reviewer with the operator CLI (`assay reviewers add`), as an operator would; returns the credential. */
export async function addSandboxReviewer(cli: string, env: NodeJS.ProcessEnv, name: string): Promise<string> {
  const { stdout } = await run(process.execPath, [cli, 'reviewers', 'add', name, '--env', 'test', '--json'], { env });
  const issued = JSON.parse(stdout) as { credential?: unknown };
  if (typeof issued.credential !== 'string') throw new Error(`assay reviewers add printed no credential: ${stdout}`);
  return issued.credential;
}
