import type { ApiOperation, ApiTag } from '../api-operation';
import { ASSESSMENT_OPERATIONS } from './assessment.operations';
import { SERVICE_OPERATIONS } from './service.operations';
import { TASK_OPERATIONS } from './task.operations';
import { WEBHOOK_OPERATIONS } from './webhook.operations';

export const API_TAGS: ApiTag[] = [
  { name: 'AI tasks', description: 'Long-running AI text tasks (summarisation). Create, then poll until succeeded or failed.' },
  { name: 'Network assessments', description: 'Architectures checked automatically, then reviewed by the architecture team.' },
  { name: 'Webhooks', description: 'Signed event notifications (`ai_task.completed`, `assessment.reviewed`) pushed to your HTTPS endpoint.' },
  { name: 'Operations', description: 'Health, metrics and this documentation; no API key needed.' },
];

export const API_OPERATIONS: ApiOperation[] = [...TASK_OPERATIONS, ...ASSESSMENT_OPERATIONS, ...WEBHOOK_OPERATIONS, ...SERVICE_OPERATIONS];
