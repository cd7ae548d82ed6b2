import { Writable } from 'node:stream';

/** A log destination that keeps every line it is given, for a test to read what was logged. */
export class CapturedLog {
  readonly lines: string[] = [];
  readonly destination = new Writable({
    write: (chunk: Buffer, _encoding, done) => {
      this.lines.push(chunk.toString());
      done();
    },
  });

  /** The JSON lines logged so far, parsed. */
  entries(): Record<string, any>[] {
    return this.lines.join('').split('\n').filter((line) => line.trim() !== '').map((line) => JSON.parse(line) as Record<string, any>);
  }
}
