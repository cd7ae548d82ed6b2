import type { OpenApiDocument } from './build-openapi-document';

const CREATE_TASK_REQUEST = 'CreateTaskRequest';

/**
 * The document as this deployment serves it: a create's `model` lists the models it offers (the
 * operator's, read at start), so a client or a fuzzer generating from the document names only
 * those; any other name is 400 UNKNOWN_MODEL.
 */
export function withOfferedModels(document: OpenApiDocument, names: string[]): OpenApiDocument {
  const schemas = document.components.schemas as Record<string, { properties?: Record<string, Record<string, unknown>> }>;
  const model = schemas[CREATE_TASK_REQUEST]?.properties?.model;
  if (!model) throw new Error(`the document's ${CREATE_TASK_REQUEST} has no model property`);
  model.enum = names;
  return document;
}
