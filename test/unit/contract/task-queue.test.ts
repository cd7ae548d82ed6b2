import { batchTaskQueue, deploymentTaskQueue, modelTaskQueue } from '../../../src/contract';

describe('deploymentTaskQueue', () => {
  it("is the queue itself for a workflow on the deployment's task queue, and that queue for one on its batch queue", () => {
    expect(deploymentTaskQueue('assay')).toBe('assay');
    expect(deploymentTaskQueue(batchTaskQueue('assay'))).toBe('assay');
    expect(deploymentTaskQueue(batchTaskQueue('team/batchy'))).toBe('team/batchy');
  });

  it("sends a batch item's model calls to the model queue every task of the deployment shares", () => {
    expect(modelTaskQueue(deploymentTaskQueue(batchTaskQueue('assay')), 'held')).toBe(modelTaskQueue('assay', 'held'));
  });
});
