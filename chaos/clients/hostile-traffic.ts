import fc from 'fast-check';
import { API_KEYS } from '../../src/common/keys/api-key';
import { badTaskBody } from '../malformed/bad-bodies';
import { startEvery } from './steady-schedule';

/** What each kind of hostile caller was answered, by status ('closed': the connection ended first). */
export interface HostileTally {
  withoutKey: Record<string, number>;
  randomKeys: Record<string, number>;
  malformed: Record<string, number>;
}

export interface HostileTarget {
  baseUrl: string;
  /** The brand of the deployment's keys, so random keys are well-formed and get looked up. */
  brand: string;
  /** A key of an organisation of its own: its malformed creates spend no one else's limits. */
  malformedKey: string;
}

// Paced rather than as fast as possible: the soak asks whether a steady stream of them, beside the
// steady mix, leaves anything behind over an hour, not what a flood costs (the hostile-callers bench).
const WITHOUT_KEY = { everyMs: 250, bodyBytes: 4 * 1024 * 1024 };
const RANDOM_KEY_EVERY_MS = 50;
const MALFORMED_EVERY_MS = 200;

/**
 * Hostile callers until `until`: bodies of 4 MiB posted without a key, reads with random
 * well-formed keys, and creates with one broken thing each (chaos/malformed), at a steady pace.
 * Every answer is tallied; what a hostile caller must never get is a 5xx.
 */
export async function sendHostileTraffic(target: HostileTarget, until: number, signal: AbortSignal): Promise<HostileTally> {
  const tally: HostileTally = { withoutKey: {}, randomKeys: {}, malformed: {} };
  const body = Buffer.alloc(WITHOUT_KEY.bodyBytes, 'a');
  const send = async (into: Record<string, number>, path: string, init: RequestInit): Promise<void> => {
    const answer = await fetch(`${target.baseUrl}${path}`, { ...init, signal })
      .then(async (response) => {
        await response.arrayBuffer();
        return String(response.status);
      })
      .catch(() => 'closed');
    into[answer] = (into[answer] ?? 0) + 1;
  };
  await Promise.all([
    startEvery(WITHOUT_KEY.everyMs, until, signal, () => send(tally.withoutKey, '/v1/ai/tasks', { method: 'POST', headers: { 'content-type': 'application/json' }, body })),
    startEvery(RANDOM_KEY_EVERY_MS, until, signal, () =>
      send(tally.randomKeys, '/v1/ai/tasks?limit=1', { headers: { authorization: `Bearer ${API_KEYS.format.generate(target.brand, 'test')}` } }),
    ),
    startEvery(MALFORMED_EVERY_MS, until, signal, () =>
      send(tally.malformed, '/v1/ai/tasks', {
        method: 'POST',
        headers: { authorization: `Bearer ${target.malformedKey}`, 'content-type': 'application/json' },
        body: fc.sample(badTaskBody, 1)[0],
      }),
    ),
  ]);
  return tally;
}

/** The 5xx answers in a tally, as one line per kind, or none. */
export function hostileServerErrors(tally: HostileTally): string[] {
  return Object.entries(tally).flatMap(([kind, answers]: [string, Record<string, number>]) => {
    const errors = Object.entries(answers).filter(([status]) => status.startsWith('5'));
    return errors.length === 0 ? [] : [`hostile ${kind} callers got ${errors.map(([status, count]) => `${count}× ${status}`).join(', ')}`];
  });
}

/** One tally as `401: 12, 429: 3400`. */
export function describeAnswers(answers: Record<string, number>): string {
  return Object.entries(answers).map(([status, count]) => `${status}: ${count}`).join(', ') || 'none';
}
