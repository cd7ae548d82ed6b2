import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { createApiApp, type ApiAppOptions } from '../../src/api/create-api-app';
import { AppConfig } from '../../src/common/config/app-config';
import type { KeyEnvironment } from '../../src/common/keys/api-key';
import { KeyService } from '../../src/common/keys/key-service';
import { ReviewerService, type IssuedReviewer } from '../../src/cli/operator/reviewer-service';
import { Storage } from '../../src/common/storage/storage';
import { freePort } from '../../src/embedded/free-port';

/**
 * The real HTTP API on a free port with its key store in a fresh data directory, pointed at a
 * port nothing listens on: Temporal is unreachable from the start.
 */
export class ApiWithoutTemporal {
  private constructor(
    readonly app: NestFastifyApplication,
    readonly config: AppConfig,
    readonly baseUrl: string,
  ) {}

  static async start(env: Record<string, string> = {}, options: ApiAppOptions = {}): Promise<ApiWithoutTemporal> {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'assay-no-temporal-'));
    try {
      const config = new AppConfig({ TEMPORAL_ADDRESS: `127.0.0.1:${await freePort()}`, DATA_DIR: dataDir, LOG_LEVEL: 'silent', ...env });
      const app = await createApiApp(config, options);
      await app.listen({ port: 0, host: '127.0.0.1' });
      return new ApiWithoutTemporal(app, config, await app.getUrl());
    } catch (error) {
      fs.rmSync(dataDir, { recursive: true, force: true });
      throw error;
    }
  }

  /** Issues a key straight into the API's key store, as `assay keys issue` would. */
  async issueKey(org: string, env: KeyEnvironment): Promise<{ id: string; key: string }> {
    return this.withStorage((storage) => new KeyService(storage.keys, this.config.values.API_KEY_BRAND, { actor: 'test' }).issue(org, env));
  }

  /** A reviewer credential, as `assay reviewers add` issues it. */
  async addReviewer(name: string, env: KeyEnvironment): Promise<IssuedReviewer> {
    return this.withStorage((storage) => new ReviewerService(storage.reviewers, this.config.values.API_KEY_BRAND, { actor: 'test' }).add(name, env));
  }

  /** Runs `use` on the API's database opened beside it, as the CLI or a worker would. */
  async withStorage<T>(use: (storage: Storage) => Promise<T>): Promise<T> {
    const storage = await Storage.open(this.config);
    try {
      return await use(storage);
    } finally {
      await storage.close();
    }
  }

  async stop(): Promise<void> {
    await this.app.close();
    fs.rmSync(this.config.values.DATA_DIR, { recursive: true, force: true });
  }
}
