import { soakMinutes } from '../../../chaos/evidence/soak-minutes';
import type { ProcessSample } from '../../../chaos/stack/process-sample';

const START = 1_000_000;
const MINUTE = 60_000;

function sample(process: string, at: number, rssBytes: number): ProcessSample {
  return { process, at, rssBytes, openFds: 10 };
}

describe('soakMinutes', () => {
  it('puts each sample in the minute it fell in, keeping the last of each process, and counts the tasks made final', () => {
    const samples = [sample('api', START + 0.5 * MINUTE, 1), sample('api', START + 0.9 * MINUTE, 2), sample('worker-1', START + 1.2 * MINUTE, 3), sample('api', START + 2 * MINUTE, 4)];
    const minutes = soakMinutes(START, 3, MINUTE, samples, [START + 10, START + MINUTE, START + MINUTE + 1]);
    expect(minutes.map((minute) => minute.tasksFinal)).toEqual([2, 1, 0]);
    expect(minutes[0].samples.get('api')?.rssBytes).toBe(2);
    expect(minutes[1].samples.get('worker-1')?.rssBytes).toBe(3);
    expect(minutes[1].samples.get('api')?.rssBytes).toBe(4);
    expect(minutes[2].samples.size).toBe(0);
  });

  it('leaves out what came before the start or after the last minute', () => {
    const minutes = soakMinutes(START, 2, MINUTE, [sample('api', START - 5, 1), sample('api', START + 2.5 * MINUTE, 2)], [START - 1, START + 3 * MINUTE]);
    expect(minutes.every((minute) => minute.samples.size === 0 && minute.tasksFinal === 0)).toBe(true);
  });
});
