import { z } from 'zod';
import type { NamedSchema } from './api-operation';

export type JsonSchema = { [keyword: string]: unknown };

const COMPONENT_PREFIX = '#/components/schemas/';

/** Request bodies are documented as zod reads them (input); responses as the API writes them (output). */
export type SchemaDirection = 'input' | 'output';

/**
 * JSON Schema 2020-12 (OpenAPI 3.1's dialect) for named zod schemas, with references between
 * them as components. Responses drop `additionalProperties: false`: v1 may add fields to a
 * response, and clients must ignore fields they do not know.
 */
export function componentSchemas(named: NamedSchema[], direction: SchemaDirection): Record<string, JsonSchema> {
  const registry = z.registry<{ id: string }>();
  for (const { name, schema } of named) registry.add(schema, { id: name });
  const { schemas } = z.toJSONSchema(registry, { target: 'draft-2020-12', io: direction, uri: (id) => `${COMPONENT_PREFIX}${id}` });
  const components: Record<string, JsonSchema> = {};
  for (const [name, schema] of Object.entries(schemas)) {
    const { $schema: _dialect, $id: _id, ...rest } = schema as JsonSchema;
    components[name] = direction === 'output' ? (withOpenObjects(rest) as JsonSchema) : rest;
  }
  return components;
}

/** One standalone schema (a parameter's), inlined. */
export function inlineSchema(schema: z.ZodType, direction: SchemaDirection = 'input'): JsonSchema {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, { target: 'draft-2020-12', io: direction }) as JsonSchema;
  return rest;
}

export function componentRef(name: string): JsonSchema {
  return { $ref: `${COMPONENT_PREFIX}${name}` };
}

/** The component name a $ref points at, if it points at one. */
export function refName(schema: JsonSchema): string | undefined {
  const ref = schema.$ref;
  return typeof ref === 'string' && ref.startsWith(COMPONENT_PREFIX) ? ref.slice(COMPONENT_PREFIX.length) : undefined;
}

function withOpenObjects(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withOpenObjects);
  if (value === null || typeof value !== 'object') return value;
  const result: JsonSchema = {};
  for (const [key, child] of Object.entries(value)) {
    if (key === 'additionalProperties' && child === false) continue;
    result[key] = withOpenObjects(child);
  }
  return result;
}
