export { aiTaskWorkflow } from './ai-task.workflow';
export { assessmentWorkflow } from './assessment.workflow';
export { webhookEventWorkflow } from './webhook-event.workflow';
export { operatorCloseSweepWorkflow } from './operator-close-sweep.workflow';
export { aiBatchWorkflow } from './ai-batch.workflow';
