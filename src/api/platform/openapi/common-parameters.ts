import { z } from 'zod';
import { CANCEL_AFTER_PATTERN } from '../http/cancel-after';
import { IDEMPOTENCY_KEY_PATTERN } from '../http/idempotency-key';
import { MAX_PREFER_WAIT_SECONDS } from '../http/prefer-wait';
import type { HeaderDoc, ParameterDoc, ResponseDoc } from './api-operation';

export const IDEMPOTENCY_KEY_HEADER: ParameterDoc = {
  name: 'Idempotency-Key',
  description:
    'Strongly recommended. 1-255 printable ASCII characters (a UUID), bare or as a quoted structured-field string. The same key with the same body returns the same resource with `Idempotent-Replayed: true`; with another body it is 422.',
  schema: z.string().regex(new RegExp(IDEMPOTENCY_KEY_PATTERN)),
  example: '9b2f7c1e-4a51-4a8e-9a3c-2f1d6e0b7a44',
};

export const PREFER_WAIT_HEADER: ParameterDoc = {
  name: 'Prefer',
  description: `RFC 7240 \`wait=N\` (N ≤ ${MAX_PREFER_WAIT_SECONDS}): wait up to N seconds for the task to finish; 200 with the final task if it does, else 202. An instance already holding as many waits as it allows answers 202 at once, without \`Preference-Applied\`.`,
  example: 'wait=10',
};

export const PREFER_WAIT_FOR_CHANGE_HEADER: ParameterDoc = {
  name: 'Prefer',
  description: `RFC 7240 \`wait=N\` (N ≤ ${MAX_PREFER_WAIT_SECONDS}): hold the answer up to N seconds until the resource's state changes or it is final, so a client is answered once per change instead of polling on a timer. \`Preference-Applied: wait=N\` says the wait was held; an instance already holding as many waits as it allows (for the organisation, or in all) answers at once without it.`,
  example: 'wait=20',
};

/** What an answer that may have been held says: whether it was, and when not, how long a busy instance asks the client to leave before its next poll. */
export const WAIT_ANSWER_HEADERS: Record<string, HeaderDoc> = {
  'Preference-Applied': { description: 'With `Prefer: wait=N`: `wait=N` when the request was held (or had nothing to wait for).' },
  'Retry-After': {
    description:
      'Seconds to leave before the next poll of this unfinished resource, when it is more than the usual 1–2 s: sent on an answer that was not held while the instance is pacing its pollers under load (at most 30).',
  },
};

export const CANCEL_AFTER_HEADER: ParameterDoc = {
  name: 'Cancel-After',
  description: 'A duration from now ("90s", "5m", "2h") after which a task not yet final fails TIMED_OUT: a deadline, as the body may give one (the earlier of the two holds).',
  schema: z.string().regex(new RegExp(CANCEL_AFTER_PATTERN)),
  example: '5m',
};

export const LOCATION_HEADER: Record<string, HeaderDoc> = {
  Location: { description: 'Path of the created resource.' },
};

export const REPLAY_HEADER: Record<string, HeaderDoc> = {
  'Idempotent-Replayed': { description: '`true` when this answers a repeated Idempotency-Key.', schema: z.literal('true') },
};

export const RATE_LIMIT_HEADERS: Record<string, HeaderDoc> = {
  RateLimit: { description: 'Per limit (`"creates"` per key, `"organisation-creates"` per organisation and environment): creates and erasures left now (`r`) and seconds until that grows (`t`), draft-ietf-httpapi-ratelimit-headers.' },
  'RateLimit-Policy': { description: 'Per limit: the burst (`q`) and the window in seconds (`w`).' },
};

/** The answers of a DELETE that erases a resource (src/api/platform/erasure); it spends from the create limits. */
export const ERASE_RESPONSES: ResponseDoc[] = [
  { status: 204, description: 'Erased; again for a repeat within the retention period.', headers: RATE_LIMIT_HEADERS },
  {
    status: 202,
    description: 'Erasure accepted: Temporal deletes in the background and still showed it when the API answered; GET may answer it for up to a minute more.',
    headers: RATE_LIMIT_HEADERS,
  },
];
