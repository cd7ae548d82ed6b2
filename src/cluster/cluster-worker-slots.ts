/**
 * Each of the cluster's workflow tasks waits on gRPC calls between the server's processes and on
 * durable PostgreSQL commits, several times the dev server's in-process round trip, so a slot is
 * held mostly waiting: with the embedded default's 8 sandbox slots per worker the two workers left
 * up to 30 % of the cores idle and completed about half as many tasks (docs/benchmarks.md, "On
 * the cluster"). Twice the embedded default, the sandbox's still below production's; settings in
 * the shell win over these.
 */
export const CLUSTER_WORKER_SLOTS = { WORKER_SLOTS_SANDBOX: '16', WORKER_SLOTS_PRODUCTION: '32' } as const;
