export { aiTaskWorkflow } from './ai-task.workflow';
export { assessmentWorkflow } from './assessment.workflow';
