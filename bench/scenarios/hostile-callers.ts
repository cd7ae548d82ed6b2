import * as path from 'node:path';
import { Worker } from 'node:worker_threads';
import { processesOf, type BenchStack } from '../bench-stack';
import { HttpGetter, type GetResult } from '../http-getter';
import { runOpenLoop } from '../open-loop';
import { distribution, type Distribution } from '../stats';
import { UsageMeter } from '../usage-meter';
import type { HostileCallerOrders } from './hostile-caller-thread';
import { parseApiKey } from '../../src/common/keys/api-key';

export interface HostileCallersSettings {
  /** How long each phase lasts. */
  phaseMs: number;
  /** Hostile callers at once: each posting a body of `bodyBytes` again and again, or presenting random keys. */
  clients: number;
  bodyBytes: number;
  /** Keyed reads a second beside each phase. */
  getsPerSecond: number;
}

export interface HostilePhase {
  name: string;
  /** The API's peak resident set during the phase. */
  apiPeakRssBytes: number;
  apiCpuSeconds: number;
  keyedGetMs: Distribution;
  /** Keyed reads answered anything but 200 (connection errors included). */
  keyedGetFailures: number;
  /** What the hostile callers were answered, by status (0: the connection closed first). */
  hostileAnswers: Record<string, number>;
}

export interface HostileCallersFigures {
  settings: HostileCallersSettings;
  phases: HostilePhase[];
}

/**
 * What callers without a valid key cost the API (issue 52): a keyed client's reads of a finished
 * task, and the API's peak RSS, while idle; beside callers posting large bodies without a key to
 * the batch route; and beside callers presenting random well-formed keys as fast as they can.
 */
export async function runHostileCallersScenario(stack: BenchStack, taskId: string, settings: HostileCallersSettings): Promise<HostileCallersFigures> {
  const api = processesOf(stack, ['api'])[0];
  if (!api) throw new Error('the hostile-callers scenario measures the API process: it needs a stack the bench started');
  const readPath = `/v1/ai/tasks/${taskId}`;
  const getter = new HttpGetter(stack.baseUrl, { authorization: `Bearer ${stack.apiKey}` });
  const phase = async (name: string, kind?: HostileCallerOrders['kind']): Promise<HostilePhase> => {
    const meter = new UsageMeter([api]);
    meter.start();
    const orders: HostileCallerOrders | undefined = kind && { kind, baseUrl: stack.baseUrl, clients: settings.clients, bodyBytes: settings.bodyBytes, brand: parseApiKey(stack.apiKey)!.brand, readPath };
    const callers = orders && new Worker(path.join(__dirname, 'hostile-caller-thread.js'), { workerData: orders });
    const answers = callers ? new Promise<Record<string, number>>((resolve) => callers.once('message', resolve)) : Promise.resolve({});
    const reads: Promise<GetResult>[] = [];
    await runOpenLoop(settings.getsPerSecond, settings.phaseMs, () => reads.push(getter.get(readPath)));
    const answered = await Promise.all(reads);
    callers?.postMessage('stop');
    const hostileAnswers = await answers;
    await callers?.terminate();
    const [cost] = meter.stop();
    return {
      name,
      apiPeakRssBytes: cost.peakRssBytes,
      apiCpuSeconds: cost.cpuSeconds,
      keyedGetMs: distribution(answered.map((result) => result.ms)),
      keyedGetFailures: answered.filter((result) => result.status !== 200).length,
      hostileAnswers,
    };
  };
  try {
    return {
      settings,
      phases: [
        await phase('idle'),
        await phase(`${settings.clients} callers without a key, each posting ${Math.round(settings.bodyBytes / 2 ** 20)} MiB to /v1/ai/batches`, 'bodies-without-key'),
        await phase(`${settings.clients} callers presenting random well-formed keys`, 'random-keys'),
      ],
    };
  } finally {
    getter.close();
  }
}
