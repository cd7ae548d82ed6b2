import type { ApiTag } from './api-operation';

/** The document's groups, in the order the document and /docs show them. */
export const API_TAGS: ApiTag[] = [
  { name: 'AI tasks', description: 'Long-running AI text tasks (summarisation). Create, then poll until succeeded or failed.' },
  { name: 'Network assessments', description: 'Architectures checked automatically, then reviewed by the architecture team.' },
  { name: 'Webhooks', description: 'Signed event notifications (`ai_task.completed`, `assessment.reviewed`) pushed to your HTTPS endpoint.' },
  { name: 'Review', description: "The architecture team's queue and actions, with a reviewer credential (`assay reviewers add`) instead of an API key." },
  { name: 'Console', description: 'The browser console for reviewers and customers at /console: its page, assets and cookie session.' },
  { name: 'Operations', description: 'Health, metrics and this documentation; no API key needed.' },
];
