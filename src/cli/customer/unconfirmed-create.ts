import { randomUUID } from 'node:crypto';
import { AssayApiError, AssayNetworkError, RequestTimeoutError } from '../../sdk';

/** How to send a create again, so the message can hand the user the exact command. */
export interface CreateRerun {
  /** What the create makes: "task", "assessment". */
  resource: string;
  /** The command line, as words, that sends the same body again under `idempotencyKey`. */
  command(idempotencyKey: string): readonly string[];
  /** What the command needs besides its words, e.g. the same text on stdin. */
  note?: string;
}

/** A create that got no answer settling whether it took effect; the work may exist without the user knowing its id. */
export class UnconfirmedCreateError extends Error {
  override name = 'UnconfirmedCreateError';

  constructor(
    readonly idempotencyKey: string,
    private readonly rerun: CreateRerun,
    cause: unknown,
  ) {
    super(`No answer confirmed whether the ${rerun.resource} was created`, { cause });
  }

  /** What happened (`causeText`), the key sent, and the command that finds the resource without making a second one. */
  explanation(causeText: string): string {
    const { resource } = this.rerun;
    return [
      `the ${resource} may or may not have been created: no attempt got an answer that says (the last: ${causeText}).`,
      `Every attempt carried Idempotency-Key ${this.idempotencyKey}; that key with the same input returns the ${resource}`,
      `made then (or makes it now), never a second one. To find it, run:`,
      `  ${rerunCommandLine(this.rerun, this.idempotencyKey)}`,
    ].join('\n');
  }
}

/** The command that sends the create again under `idempotencyKey`, as a shell reads it back, with its note. */
export function rerunCommandLine(rerun: CreateRerun, idempotencyKey: string): string {
  return `${rerun.command(idempotencyKey).map(shellWord).join(' ')}${rerun.note ? `  (${rerun.note})` : ''}`;
}

/**
 * Runs a create under one Idempotency-Key, the caller's or a fresh one, so that when no answer
 * settles its outcome the user can be told the key and the command that finds the result.
 */
export async function createUnderKey<T>(
  idempotencyKey: string | undefined,
  rerun: CreateRerun,
  create: (idempotencyKey: string) => Promise<T>,
): Promise<T> {
  const key = idempotencyKey ?? randomUUID();
  try {
    return await create(key);
  } catch (error) {
    if (leavesOutcomeOpen(error)) throw new UnconfirmedCreateError(key, rerun, error);
    throw error;
  }
}

/**
 * The SDK retries a create after no response, a 5xx or a 429 and throws the last error, so any of
 * those may follow an attempt the service carried out; a 2xx it could not read did create.
 */
function leavesOutcomeOpen(error: unknown): boolean {
  if (error instanceof AssayNetworkError || error instanceof RequestTimeoutError) return true;
  return error instanceof AssayApiError && (error.status >= 500 || error.status === 429 || error.status < 400);
}

const PLAIN_WORD = /^[\w@%+=:,./-]+$/;

/** The word as a POSIX shell reads it back unchanged. */
function shellWord(word: string): string {
  return PLAIN_WORD.test(word) ? word : `'${word.split("'").join(`'\\''`)}'`;
}
