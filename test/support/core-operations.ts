/** Operations every view of the API must show (the document, the /docs page): the spec's core routes, as "METHOD path". */
export const CORE_OPERATIONS = [
  'POST /v1/ai/tasks',
  'GET /v1/ai/tasks',
  'GET /v1/ai/tasks/{task_id}',
  'POST /v1/ai/tasks/{task_id}/cancel',
  'POST /v1/network-assessments',
  'GET /v1/network-assessments',
  'GET /v1/network-assessments/{assessment_id}',
  'GET /healthz',
  'GET /readyz',
  'GET /metrics',
];
