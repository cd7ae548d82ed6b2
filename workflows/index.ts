export { aiTaskWorkflow } from './ai-task.workflow';
