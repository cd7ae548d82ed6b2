import { defaultPayloadConverter } from '@temporalio/common';
import { EncryptedPayloadCodec } from '../../src/common/crypto/encrypted-payload-codec';
import { generateEncryptionKeyEntry, parseEncryptionKeys } from '../../src/common/crypto/encryption-keys';
import { StaticKeyRing } from '../../src/common/crypto/key-ring';
import { benchText } from '../bench-text';
import { median } from '../stats';
import { TEXT_SIZES } from './summariser';

/** One encode and one decode of a payload holding a text of a size: what a task's input costs the API and the worker. */
export type PayloadCodecFigure = (typeof TEXT_SIZES)[number] & { medianMs: number; cpuMsPerRoundTrip: number };

// The codec is far cheaper than the summariser: more runs for a stable figure.
const RUNS_PER_SUMMARISER_RUN = 4;
const WARMUP_RUNS = 20;

/** The payload encryption codec on its own, in this process: the CPU encryption adds per payload. */
export async function runPayloadCodecScenario(): Promise<PayloadCodecFigure[]> {
  const parsed = parseEncryptionKeys(generateEncryptionKeyEntry('bench'));
  if (!parsed.ok) throw new Error(parsed.problem);
  const codec = new EncryptedPayloadCodec(new StaticKeyRing(parsed.keys));
  const figures: PayloadCodecFigure[] = [];
  for (const size of TEXT_SIZES) {
    const { bytes } = size;
    const runs = size.runs * RUNS_PER_SUMMARISER_RUN;
    const payloads = [defaultPayloadConverter.toPayload({ text: benchText(bytes) })];
    for (let i = 0; i < WARMUP_RUNS; i++) await codec.decode(await codec.encode(payloads));
    const times: number[] = [];
    const cpuBefore = process.cpuUsage();
    for (let i = 0; i < runs; i++) {
      const started = performance.now();
      await codec.decode(await codec.encode(payloads));
      times.push(performance.now() - started);
    }
    const cpu = process.cpuUsage(cpuBefore);
    figures.push({ ...size, runs, medianMs: median(times), cpuMsPerRoundTrip: (cpu.user + cpu.system) / 1000 / runs });
  }
  return figures;
}
