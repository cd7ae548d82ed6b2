// The one contract between the API, the worker, the workflows, the CLI and the bench: task queue,
// workflow types and ids, inputs, outputs, memos, updates, queries, search attributes, patch ids,
// event types and error codes. Definitions only; the workflow bundle includes it, so no Node
// built-ins (the workflow lint rules cover this folder). The shapes clients send and read are
// declared in ./wire; this barrel carries their plain lists and, through the files above, their types.

export * from './ai-batch';
export * from './ai-task';
export * from './assessment';
export * from './assessment-checks';
export * from './models';
export * from './patches';
export * from './search-attributes';
export * from './task-queue';
export * from './webhook-events';
export * from './wire/values';
