import * as http from 'node:http';
import { parentPort, workerData } from 'node:worker_threads';
import { API_KEYS } from '../../src/common/keys/api-key';
import { HttpGetter } from '../http-getter';

/** What the scenario asks of a thread of hostile callers. */
export interface HostileCallerOrders {
  kind: 'bodies-without-key' | 'random-keys';
  baseUrl: string;
  clients: number;
  bodyBytes: number;
  /** The brand random keys are made with, so they are well-formed and looked up. */
  brand: string;
  /** A path the random keys read. */
  readPath: string;
}

// Its own thread, so the callers' sending never delays the keyed client's reads in the bench's event loop.
const orders = workerData as HostileCallerOrders;
const answers: Record<string, number> = {};
let stopped = false;

parentPort?.once('message', () => {
  stopped = true;
});

void Promise.all(Array.from({ length: orders.clients }, () => (orders.kind === 'random-keys' ? guessKeys() : postBodies()))).then(() => parentPort?.postMessage(answers));

async function postBodies(): Promise<void> {
  const body = Buffer.alloc(orders.bodyBytes, 'a');
  while (!stopped) count(await postWithoutKey(body));
}

async function guessKeys(): Promise<void> {
  const guesser = new HttpGetter(orders.baseUrl, {}, 1);
  try {
    while (!stopped) count((await guesser.get(orders.readPath, { authorization: `Bearer ${API_KEYS.format.generate(orders.brand, 'test')}` })).status);
  } finally {
    guesser.close();
  }
}

function count(status: number): void {
  answers[status] = (answers[status] ?? 0) + 1;
}

/** One POST of `body` with no Authorization header on a fresh connection: its status, or 0 if the connection closed before an answer. */
function postWithoutKey(body: Buffer): Promise<number> {
  const origin = new URL(orders.baseUrl);
  return new Promise((resolve) => {
    const request = http.request(
      { host: origin.hostname, port: origin.port, path: '/v1/ai/batches', method: 'POST', agent: false, headers: { 'content-type': 'application/json', 'content-length': body.length } },
      (response) => {
        response.resume();
        response.once('end', () => resolve(response.statusCode ?? 0));
        response.once('error', () => resolve(response.statusCode ?? 0));
      },
    );
    request.once('error', () => resolve(0));
    request.end(body);
  });
}
