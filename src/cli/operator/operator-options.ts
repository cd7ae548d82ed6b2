import { InvalidArgumentError } from 'commander';
import { KEY_ENVIRONMENTS, type KeyEnvironment } from '../../common/keys/api-key';
import { defaultOperatorActor } from '../../common/credentials/operator-actor';
import type { CommandEnd, TextOutput } from '../command-runner';

/** Everything the operator commands (keys, reviewers) touch outside themselves, so tests can run them in-process. */
export interface OperatorCommandDeps extends CommandEnd {
  env: Record<string, string | undefined>;
  stdout: TextOutput;
  clock(): Date;
}

export function nodeOperatorCommandDeps(): OperatorCommandDeps {
  return {
    env: process.env,
    stdout: process.stdout,
    stderr: process.stderr,
    exit: (code) => process.exit(code),
    clock: () => new Date(),
  };
}

export const DEFAULT_AUDIT_LIMIT = 100;

export interface ActorOption {
  actor: string;
}

export function parseEnvironment(value: string): KeyEnvironment {
  if (!(KEY_ENVIRONMENTS as readonly string[]).includes(value)) throw new InvalidArgumentError('must be test or live');
  return value as KeyEnvironment;
}

function parseActor(value: string): string {
  const actor = value.trim();
  if (actor.length === 0 || actor.length > 200) throw new InvalidArgumentError('must be 1-200 characters');
  return actor;
}

export function parseLimit(value: string): number {
  const limit = Number(value);
  if (!Number.isInteger(limit) || limit < 1 || limit > 10_000) throw new InvalidArgumentError('must be a whole number from 1 to 10000');
  return limit;
}

/** `--actor`, for every operator command that changes something. */
export const actorOption = ['--actor <name>', 'who to name in the audit log (default: the OS user)', parseActor, defaultOperatorActor()] as const;
