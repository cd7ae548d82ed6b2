import { refName, type JsonSchema } from '../json-schema';

/** One row of a field table: a dotted path into the body, with what it may hold. */
export interface SchemaField {
  path: string;
  type: string;
  required: boolean;
  notes: string[];
}

const MAX_DEPTH = 6;

/** The fields of a JSON Schema body, flattened depth-first (objects and arrays of objects are opened). */
export function schemaFields(schema: JsonSchema, components: Record<string, JsonSchema>): SchemaField[] {
  const fields: SchemaField[] = [];
  collect(resolve(schema, components), components, '', fields, 0);
  return fields;
}

function collect(schema: JsonSchema, components: Record<string, JsonSchema>, prefix: string, fields: SchemaField[], depth: number): void {
  if (depth > MAX_DEPTH) return;
  const properties = schema.properties as Record<string, JsonSchema> | undefined;
  if (!properties) return;
  const required = new Set((schema.required ?? []) as string[]);
  for (const [name, raw] of Object.entries(properties)) {
    const property = resolve(raw, components);
    const path = `${prefix}${name}`;
    fields.push({ path, type: typeLabel(property, components), required: required.has(name), notes: notes(property) });
    const items = property.items ? resolve(property.items as JsonSchema, components) : undefined;
    if (items?.properties) collect(items, components, `${path}[].`, fields, depth + 1);
    else if (property.properties) collect(property, components, `${path}.`, fields, depth + 1);
  }
}

function resolve(schema: JsonSchema, components: Record<string, JsonSchema>): JsonSchema {
  const name = refName(schema);
  return name && components[name] ? { ...components[name], ...withoutRef(schema) } : schema;
}

function withoutRef(schema: JsonSchema): JsonSchema {
  const { $ref: _ref, ...rest } = schema;
  return rest;
}

/** A short type such as `string`, `integer`, `object[]`, `string | null` or `map of string → string | number`. */
export function typeLabel(schema: JsonSchema, components: Record<string, JsonSchema>): string {
  const name = refName(schema);
  if (name) return name;
  if (schema.const !== undefined) return JSON.stringify(schema.const);
  const variants = (schema.anyOf ?? schema.oneOf) as JsonSchema[] | undefined;
  if (variants) return variants.map((variant) => typeLabel(variant, components)).join(' | ');
  const type = schema.type;
  if (Array.isArray(type)) return type.join(' | ');
  if (type === 'array') return `${typeLabel((schema.items ?? {}) as JsonSchema, components)}[]`;
  if (type === 'object' && !schema.properties && typeof schema.additionalProperties === 'object') {
    return `map of string → ${typeLabel(schema.additionalProperties as JsonSchema, components)}`;
  }
  return typeof type === 'string' ? type : 'any';
}

function notes(schema: JsonSchema): string[] {
  const result: string[] = [];
  if (typeof schema.description === 'string') result.push(schema.description);
  if (Array.isArray(schema.enum)) result.push(`One of: ${schema.enum.map((value) => JSON.stringify(value)).join(', ')}.`);
  const length = range(schema.minLength, schema.maxLength);
  if (length) result.push(`Length ${length} characters.`);
  const value = range(schema.minimum, schema.maximum);
  if (value) result.push(`Value ${value}.`);
  const items = range(schema.minItems, schema.maxItems);
  if (items) result.push(`Items: ${items}.`);
  const keys = schema.propertyNames as JsonSchema | undefined;
  const keyLength = keys ? range(keys.minLength, keys.maxLength) : undefined;
  if (keyLength) result.push(`Keys: length ${keyLength} characters.`);
  if (schema.format === 'date-time') result.push('RFC 3339 date-time.');
  else if (typeof schema.pattern === 'string') result.push(`Matches ${schema.pattern}.`);
  if (schema.default !== undefined) result.push(`Default ${JSON.stringify(schema.default)}.`);
  return result;
}

function range(min: unknown, max: unknown): string | undefined {
  if (typeof min === 'number' && typeof max === 'number') return min === max ? `exactly ${min}` : `${min}–${max}`;
  if (typeof max === 'number') return `at most ${max}`;
  if (typeof min === 'number') return `at least ${min}`;
  return undefined;
}
