import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { API_INSTANCES, Cluster, CLUSTER_NAMESPACES, TEMPORAL_SERVICES, WORKERS } from '../src/cluster/cluster';
import { AppConfig } from '../src/common/config/app-config';
import { stopChild } from '../src/embedded/child-services';
import { freePort, freePortPair } from '../src/embedded/free-port';
import { CLIENT, errorLines, issueKey, rawWorkerProcess, type BenchStack, type MeasuredProcess } from './bench-stack';
import { UNLIMITED_CREATES } from './unlimited-creates';
import { canReadProcesses } from './process-usage';
import { rawWorkerReady, rawWorkerRole, startRawWorker, type RawWorker, type RawWorkerTarget } from './raw-engine/start-raw-worker';
import { taskWorkerOptions } from '../src/worker/task-worker-options';

const RAW_WORKER_GRACE_MS = 15_000;

/**
 * `npm run bench -- --cluster`: `npm run cluster`'s topology (src/cluster) in a temporary
 * directory on free ports: durable PostgreSQL, the Temporal server's history, matching and
 * frontend (+ internal worker) processes behind mTLS, two API instances and two workers, with the
 * raw engine's worker connecting through the same mTLS settings, and with `rawLikeForLike` as many
 * more as the cluster has workers, with the slots and payload codec its workers have, on a task
 * queue of their own. Every process is measured. The create limits are lifted unless
 * `createLimits`, which leaves them as shipped.
 */
export async function startClusterBenchStack(
  log: (message: string) => void,
  { rawLikeForLike = false, createLimits = false }: { rawLikeForLike?: boolean; createLimits?: boolean } = {},
): Promise<BenchStack> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'assay-bench-cluster-'));
  let cluster: Cluster | undefined;
  const rawWorkers: RawWorker[] = [];
  const stop = async () => {
    await Promise.all(rawWorkers.map((rawWorker) => stopChild(rawWorker, RAW_WORKER_GRACE_MS)));
    await cluster?.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    cluster = await Cluster.start({ dataDir, apiPort: await freePortPair(), uiPort: await freePort(), serviceEnv: createLimits ? {} : UNLIMITED_CREATES, log });
    const namespace = CLUSTER_NAMESPACES.sandbox;
    const suffix = randomBytes(4).toString('hex');
    const rawTaskQueue = `assay-raw-${suffix}`;
    const likeForLikeTaskQueue = `assay-raw-like-for-like-${suffix}`;
    const rawLog = (name: string) => path.join(dataDir, 'logs', `${name}.log`);
    const target = { temporalEnv: cluster.env, environment: 'test' as const, namespace };
    const asShipped: RawWorkerTarget = { ...target, taskQueue: rawTaskQueue };
    // Like for like, as many raw workers as the cluster has workers, each with the slots and
    // payload keys it reads from the environment the cluster's workers share.
    const likeForLike: RawWorkerTarget = { ...target, taskQueue: likeForLikeTaskQueue, assayWorkerEnv: cluster.env };
    const rawTargets = [
      { target: asShipped, name: rawWorkerRole(asShipped) },
      ...(rawLikeForLike ? WORKERS.map((_, index) => ({ target: likeForLike, name: `${rawWorkerRole(likeForLike)}-${index + 1}` })) : []),
    ];
    for (const { target: rawTarget, name } of rawTargets) {
      const rawWorker = startRawWorker(rawTarget, rawLog(name), name);
      rawWorkers.push(rawWorker);
      await rawWorkerReady(rawWorker);
    }
    const running = cluster;
    const config = new AppConfig(running.env);
    const assay = [...API_INSTANCES, ...WORKERS].map((name) => running.process(name));
    return {
      description: `cluster (npm run cluster's topology): PostgreSQL (durable), Temporal server ${path.basename(running.build.dir)} with ${TEMPORAL_SERVICES.join(', ')} (+ worker service) as processes, frontend behind mTLS; ${API_INSTANCES.length} API instances (tasks spread over both) and ${WORKERS.length} workers; the raw worker${rawLikeForLike ? ` as shipped and ${WORKERS.length} like for like` : ''} through the same mTLS settings`,
      connection: running.connectionOptions,
      namespace,
      rawTaskQueue,
      rawLikeForLike: rawLikeForLike ? { taskQueue: likeForLikeTaskQueue, workerOptions: taskWorkerOptions(config, 'test') } : undefined,
      baseUrl: running.apiUrls[0],
      baseUrls: running.apiUrls,
      apiKey: await issueKey(config, 'bench', 'test'),
      issueKey: (organization, environment) => issueKey(config, organization, environment),
      processes: canReadProcesses() ? [...clusterProcesses(running), ...rawWorkers.map(rawWorkerProcess), CLIENT] : [],
      loggedErrors: () => errorLines([...assay.map((process) => ({ name: process.name, logFile: process.spec.logFile })), ...rawWorkers.map((rawWorker) => ({ name: rawWorker.name, logFile: rawLog(rawWorker.name) }))]),
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** Every process a task goes through: the API instances, the workers, each Temporal service, PostgreSQL with its backends. */
function clusterProcesses(cluster: Cluster): MeasuredProcess[] {
  const pid = (name: Parameters<Cluster['process']>[0]) => cluster.process(name).pid as number;
  return [
    ...API_INSTANCES.map((name): MeasuredProcess => ({ name, role: 'api', pid: pid(name) })),
    ...WORKERS.map((name): MeasuredProcess => ({ name, role: 'worker', pid: pid(name) })),
    ...TEMPORAL_SERVICES.map((name): MeasuredProcess => ({ name, role: 'temporal', pid: pid(name) })),
    { name: 'postgres', role: 'database', pid: cluster.postgres.server.pid(), tree: true },
  ];
}
