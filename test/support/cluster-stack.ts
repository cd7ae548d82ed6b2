import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { builtEntrypoints } from '../../chaos/stack/built-entrypoints';
import { CHAOS_ORGANIZATION } from '../../chaos/stack/chaos-stack';
import { issueSandboxKey } from '../../chaos/stack/issue-key';
import { SlowProvider, type DelayRange } from '../../chaos/stack/slow-provider';
import type { ScenarioStack } from '../../chaos/scenarios/scenario-context';
import { Cluster, CLUSTER_NAMESPACES } from '../../src/cluster/cluster';
import { AppConfig } from '../../src/common/config/app-config';
import { assayDataConverter } from '../../src/common/temporal/data-converter';
import { freePort, freePortPair } from '../../src/embedded/free-port';
import { remoteProviderEnv } from './remote-provider-env';

const START_ATTEMPTS = 3;
const PORT_TAKEN = /EADDRINUSE|address already in use/;

export interface ClusterStackOptions {
  /** Names the temp directory. */
  label: string;
  /** Added to every API instance's and worker's environment. */
  serviceEnv?: NodeJS.ProcessEnv;
  /** Summaries come from a slow stand-in provider with this delay; omitted = the extractive summariser. */
  providerDelay?: DelayRange;
}

/**
 * `npm run cluster`'s topology (src/cluster) for one test file: in a temp directory, on free ports,
 * with a sandbox key of the chaos organisation, usable as a chaos scenario's stack.
 */
export class ClusterStack implements ScenarioStack {
  private auditConnection?: Connection;

  private constructor(
    readonly cluster: Cluster,
    readonly dir: string,
    readonly apiKey: string,
    readonly slowProvider?: SlowProvider,
  ) {}

  static async start(options: ClusterStackOptions): Promise<ClusterStack> {
    const { cli } = builtEntrypoints();
    const provider = options.providerDelay ? new SlowProvider(options.providerDelay) : undefined;
    const providerEnv = provider ? remoteProviderEnv(await provider.listen()) : {};
    let cluster: Cluster | undefined;
    let dir = '';
    for (let attempt = 1; !cluster; attempt++) {
      dir = fs.mkdtempSync(path.join(os.tmpdir(), `assay-cluster-${options.label}-`));
      try {
        cluster = await Cluster.start({
          dataDir: dir,
          apiPort: await freePortPair(),
          uiPort: await freePort(),
          durable: false,
          serviceEnv: { ...options.serviceEnv, ...providerEnv },
          log: () => {},
        });
      } catch (error) {
        // Free ports are only free when picked: another test or process may bind one while the cluster starts.
        if (PORT_TAKEN.test((error as Error).message) && attempt < START_ATTEMPTS) {
          fs.rmSync(dir, { recursive: true, force: true });
          continue;
        }
        await provider?.close();
        throw new Error(`the cluster did not start (its files are kept in ${dir}): ${(error as Error).message}`);
      }
    }
    const stack = new ClusterStack(cluster, dir, '', provider);
    try {
      return new ClusterStack(cluster, dir, await issueSandboxKey(cli, stack.cliEnv(), CHAOS_ORGANIZATION), provider);
    } catch (error) {
      await stack.stop({ keepFiles: true });
      throw error;
    }
  }

  /** The first API instance: where a scenario's clients go. */
  get baseUrl(): string {
    return this.cluster.apiUrls[0];
  }

  /** The environment an `assay` command runs with against this cluster: cluster.env's. */
  cliEnv(): NodeJS.ProcessEnv {
    return { ...process.env, LOG_LEVEL: 'warn', ...this.cluster.env };
  }

  /** A Temporal client on the sandbox namespace, for the evidence and the reviews; it decrypts with the cluster's keys. */
  async auditClient(): Promise<Client> {
    this.auditConnection ??= await Connection.connect(this.cluster.connectionOptions);
    const dataConverter = assayDataConverter(new AppConfig(this.cliEnv()));
    return new Client({ connection: this.auditConnection, namespace: CLUSTER_NAMESPACES.sandbox, dataConverter });
  }

  async stop(options: { keepFiles?: boolean } = {}): Promise<void> {
    await this.auditConnection?.close();
    await this.cluster.stop();
    await this.slowProvider?.close();
    if (!options.keepFiles) fs.rmSync(this.dir, { recursive: true, force: true });
  }
}
