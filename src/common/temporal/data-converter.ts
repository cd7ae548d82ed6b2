import type { DataConverter } from '@temporalio/common';
import type { AppConfig } from '../config/app-config';
import { EncryptedPayloadCodec } from '../crypto/encrypted-payload-codec';

/**
 * What every Assay client and worker encodes payloads with: encrypted when keys are configured.
 * The codec runs in the worker's main thread, outside the workflow sandbox, so it may use node:crypto.
 */
export function assayDataConverter(config: AppConfig): DataConverter {
  const keyRing = config.keyRing;
  return keyRing ? { payloadCodecs: [new EncryptedPayloadCodec(keyRing)] } : {};
}
