import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { AppConfig } from '../../../../src/common/config/app-config';
import { generateEncryptionKeyEntry } from '../../../../src/common/crypto/encryption-keys';
import type { BatchItem, BatchRef } from '../../../../src/common/storage/batch-item-store';
import { Storage } from '../../../../src/common/storage/storage';

const BATCH: BatchRef = { environment: 'test', organizationId: 'acme', batchId: 'batch_1' };
const ITEMS = 3_000;

let dir: string;
let storage: Storage;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'assay-batch-items-'));
  storage = await Storage.open(new AppConfig({ DATA_DIR: dir, PAYLOAD_ENCRYPTION_KEYS: generateEncryptionKeyEntry('k1') }));
});

afterAll(async () => {
  await storage?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

function items(count: number): BatchItem[] {
  return Array.from({ length: count }, (_, index) => ({ index, key: `item-${index}`, input: { text: `Text number ${index}.` } }));
}

describe('batch item store', () => {
  it('lets other work of the process run while it stages a large batch, then pages the items back in order', async () => {
    // A request arriving meanwhile is a callback of the event loop: count how often one gets a turn.
    let turns = 0;
    let staging = true;
    const turn = (): void => {
      turns += 1;
      if (staging) setImmediate(turn);
    };
    setImmediate(turn);
    await storage.batchItems.stage(BATCH, items(ITEMS), new Date());
    staging = false;
    expect(turns).toBeGreaterThan(2);

    const page = await storage.batchItems.page(BATCH, 1_500, 3);
    expect(page).toEqual(items(ITEMS).slice(1_500, 1_503));
  });

  it('stages nothing twice when the same batch is staged again', async () => {
    await storage.batchItems.stage(BATCH, items(ITEMS), new Date());
    expect(await storage.batchItems.withdraw(BATCH)).toBe(ITEMS);
  });
});
