export { aiTaskWorkflow } from './ai-task.workflow';
export { assessmentWorkflow } from './assessment.workflow';
export { webhookEventWorkflow } from './webhook-event.workflow';
