import * as fs from 'node:fs';
import * as path from 'node:path';
import { KeyService } from '../common/keys/key-service';
import type { KeyStore } from '../common/storage/key-store';

export const DEMO_ORGANIZATION = 'demo';

/**
 * On the first start, issues a sandbox key for the demo organisation into a file only its owner
 * can read, so the key never lands in a terminal log. Returns that file's path.
 */
export async function ensureDemoKey(store: KeyStore, brand: string, dataDir: string): Promise<string> {
  const file = path.join(dataDir, 'demo-api-key.txt');
  if (fs.existsSync(file)) return file;
  const issued = await new KeyService(store, brand).issue(DEMO_ORGANIZATION, 'test');
  fs.writeFileSync(file, `${issued.key}\n`, { mode: 0o600 });
  return file;
}
