import * as os from 'node:os';

/** Who an audit entry names when the operator does not say: the OS account running the command. */
export function defaultOperatorActor(): string {
  try {
    return os.userInfo().username;
  } catch {
    // A container user without a passwd entry has no name; its uid still identifies it.
    return `uid:${process.getuid?.() ?? 'unknown'}`;
  }
}
