import type { OpenApiDocument } from './build-openapi-document';

type Schema = { $ref?: string; properties?: Record<string, Record<string, unknown>> };
type Operation = { requestBody?: { content?: Record<string, { schema?: Schema }> } };

const COMPONENT_PREFIX = '#/components/schemas/';

/**
 * The document as this deployment serves it: every request body that names a `model` (a task's
 * create, a batch's) lists the models it offers (the operator's, read at start), so a client or a
 * fuzzer generating from the document names only those; any other name is 400 UNKNOWN_MODEL.
 */
export function withOfferedModels(document: OpenApiDocument, names: string[]): OpenApiDocument {
  const schemas = document.components.schemas as Record<string, Schema>;
  const offering = requestBodySchemaNames(document).filter((name) => schemas[name]?.properties?.model);
  if (offering.length === 0) throw new Error('no request body of the document has a model property');
  for (const name of offering) schemas[name].properties!.model.enum = names;
  return document;
}

function requestBodySchemaNames(document: OpenApiDocument): string[] {
  const operations = Object.values(document.paths as Record<string, Record<string, Operation>>).flatMap((methods) => Object.values(methods));
  const refs = operations.flatMap((operation) => Object.values(operation.requestBody?.content ?? {}).map((media) => media.schema?.$ref ?? ''));
  return [...new Set(refs.filter((ref) => ref.startsWith(COMPONENT_PREFIX)).map((ref) => ref.slice(COMPONENT_PREFIX.length)))];
}
