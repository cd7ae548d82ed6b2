import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { createApiApp } from '../../src/api/create-api-app';
import { AppConfig } from '../../src/common/config/app-config';
import { KeyService } from '../../src/common/keys/key-service';
import { Storage } from '../../src/common/storage/storage';
import { freePort } from '../../src/embedded/free-port';
import { bearer, http } from '../support/http';

let app: NestFastifyApplication;
let baseUrl: string;
let key: string;
let dataDir: string;

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'assay-down-'));
  const config = new AppConfig({
    TEMPORAL_ADDRESS: `127.0.0.1:${await freePort()}`,
    TEMPORAL_RPC_TIMEOUT_MS: '1000',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
  });
  const storage = await Storage.open(config);
  key = (await new KeyService(storage.keys, 'assay').issue('acme', 'test')).key;
  await storage.close();
  app = await createApiApp(config);
  await app.listen({ port: 0, host: '127.0.0.1' });
  baseUrl = await app.getUrl();
});

afterAll(async () => {
  await app?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('Temporal unreachable', () => {
  it('answers a create with 503 SERVICE_UNAVAILABLE and Retry-After, not 500', async () => {
    const response = await http(`${baseUrl}/v1/ai/tasks`, {
      method: 'POST',
      headers: bearer(key),
      json: { task_type: 'summarize', input: { text: 'Some text.' } },
    });
    expect(response.status).toBe(503);
    expect(response.body.error.code).toBe('SERVICE_UNAVAILABLE');
    expect(response.headers.get('retry-after')).toBeTruthy();
  });

  it('answers a poll with 503 within the RPC deadline', async () => {
    const response = await http(`${baseUrl}/v1/ai/tasks/task_01JAAAAAAAAAAAAAAAAAAAAAAA`, { headers: bearer(key) });
    expect(response.status).toBe(503);
    expect(response.body.error.code).toBe('SERVICE_UNAVAILABLE');
  });

  it('still validates and authenticates before touching Temporal', async () => {
    expect((await http(`${baseUrl}/v1/ai/tasks/task_01JAAAAAAAAAAAAAAAAAAAAAAA`)).status).toBe(401);
    const invalid = await http(`${baseUrl}/v1/ai/tasks`, { method: 'POST', headers: bearer(key), json: { task_type: 'summarize' } });
    expect(invalid.status).toBe(400);
  });

  it('keeps /healthz answering', async () => {
    expect((await http(`${baseUrl}/healthz`)).status).toBe(200);
  });
});
