/** How big each scenario runs. `ci` fits inside `npm test`; `full` is the issue's sizes and more; `cluster` is `npm run test:cluster`'s. */
export interface Profile {
  name: 'ci' | 'full' | 'cluster';
  /** Tasks of each crash scenario. */
  crashTasks: number;
  /** Assessments submitted alongside the tasks when a worker is killed. */
  crashAssessments: number;
  /** Creates per second the crash scenarios' clients send, so the load spans the fault. */
  crashSubmitRate: number;
  /** Assessments waiting for a reviewer when everything restarts. */
  reviewAssessments: number;
  loadTasks: number;
  /** Share of load tasks sent again with the same Idempotency-Key. */
  loadDuplicateShare: number;
  malformedRequests: number;
  /** How long accepted work may take to get done after a fault. */
  drainTimeoutMs: number;
}

export const PROFILES: Record<Profile['name'], Profile> = {
  ci: {
    name: 'ci',
    crashTasks: 150,
    crashAssessments: 10,
    crashSubmitRate: 60,
    reviewAssessments: 3,
    loadTasks: 200,
    loadDuplicateShare: 0.1,
    malformedRequests: 10_000,
    drainTimeoutMs: 120_000,
  },
  full: {
    name: 'full',
    crashTasks: 1_000,
    crashAssessments: 50,
    crashSubmitRate: 150,
    reviewAssessments: 10,
    loadTasks: 2_000,
    loadDuplicateShare: 0.1,
    malformedRequests: 50_000,
    drainTimeoutMs: 300_000,
  },
  cluster: {
    name: 'cluster',
    crashTasks: 1_000,
    crashAssessments: 10,
    crashSubmitRate: 50,
    reviewAssessments: 3,
    loadTasks: 1_000,
    loadDuplicateShare: 0.1,
    malformedRequests: 10_000,
    drainTimeoutMs: 300_000,
  },
};
