import type { OpenApiDocument } from '../build-openapi-document';
import { refName, type JsonSchema } from '../json-schema';
import { DOCS_PAGE_STYLE } from './docs-page-style';
import { SafeHtml, html, prose } from './html';
import { schemaFields, typeLabel } from './schema-fields';

interface OperationEntry {
  method: string;
  path: string;
  operation: JsonSchema;
}

/** The whole reference as one HTML page: no script, no external asset, so it works offline and under a strict CSP. */
export function renderDocsPage(document: OpenApiDocument): string {
  const operations = operationEntries(document);
  const components = document.components.schemas;
  const byTag = document.tags.map((tag) => ({ tag, entries: operations.filter((entry) => firstTag(entry) === tag.name) }));
  const page = html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${document.info.title} reference</title>
<style>${rawStyle()}</style>
</head>
<body>
<header>
<h1>${document.info.title}<span class="version">v${document.info.version}</span></h1>
<p>${prose(document.info.description)}</p>
<p>Machine-readable: <a href="/openapi.json">/openapi.json</a> (OpenAPI ${document.openapi}).</p>
</header>
<div class="layout">
<nav aria-label="Operations">
${byTag.map(
  ({ tag, entries }) => html`<h2>${tag.name}</h2>
<ul>${entries.map((entry) => html`<li><a href="#${anchor(entry)}"><span class="method ${entry.method}">${entry.method.toUpperCase()}</span><code>${entry.path}</code></a></li>`)}</ul>`,
)}
</nav>
<main>
<section id="authentication">
<h2>Authentication</h2>
<p>Send <code>Authorization: Bearer &lt;API key&gt;</code> on every request except the Operations routes. A <code>_test_</code> key works in the sandbox, a <code>_live_</code> key in production. POST bodies are JSON with <code>Content-Type: application/json</code>. Every response carries <code>X-Request-Id</code>; every error has the body <code>{"error": {"code", "message", "request_id"}}</code>.</p>
</section>
${byTag.map(
  ({ tag, entries }) => html`<section class="tag" id="tag-${slug(tag.name)}">
<h2>${tag.name}</h2>
<p>${prose(tag.description)}</p>
${entries.map((entry) => renderOperation(entry, components))}
</section>`,
)}
</main>
</div>
</body>
</html>
`;
  return page.value;
}

function renderOperation(entry: OperationEntry, components: Record<string, JsonSchema>): SafeHtml {
  const { operation } = entry;
  const isPublic = Array.isArray(operation.security) && operation.security.length === 0;
  const parameters = (operation.parameters ?? []) as JsonSchema[];
  const responses = Object.entries((operation.responses ?? {}) as Record<string, JsonSchema>);
  const successes = responses.filter(([status]) => Number(status) < 400);
  const failures = responses.filter(([status]) => Number(status) >= 400);
  return html`<article class="operation" id="${anchor(entry)}">
<h3><span class="method ${entry.method}">${entry.method.toUpperCase()}</span><code>${entry.path}</code></h3>
<p class="summary">${String(operation.summary ?? '')}</p>
${typeof operation.description === 'string' && html`<p>${prose(operation.description)}</p>`}
<p class="auth">${isPublic ? 'No API key needed.' : 'Needs an API key.'}</p>
${parameters.length > 0 && renderParameters(parameters, components)}
${operation.requestBody ? renderRequestBody(operation.requestBody as JsonSchema, components) : ''}
<h4>Responses</h4>
${successes.map(([status, response]) => renderResponse(status, response, components))}
${failures.length > 0 && renderErrors(failures)}
</article>`;
}

function renderParameters(parameters: JsonSchema[], components: Record<string, JsonSchema>): SafeHtml {
  return html`<h4>Parameters</h4>
<table><thead><tr><th>Name</th><th>In</th><th>Type</th><th>Description</th></tr></thead><tbody>
${parameters.map((parameter) => {
  const schema = (parameter.schema ?? {}) as JsonSchema;
  const details = [typeof parameter.description === 'string' ? parameter.description : '', ...constraintNotes(schema)].filter(Boolean).join(' ');
  return html`<tr><td><code>${String(parameter.name)}</code>${parameter.required === true && html` <span class="req">required</span>`}</td><td>${String(parameter.in)}</td><td>${typeLabel(schema, components)}</td><td>${prose(details)}${parameter.example !== undefined && html` Example: <code>${String(parameter.example)}</code>`}</td></tr>`;
})}
</tbody></table>`;
}

function renderRequestBody(body: JsonSchema, components: Record<string, JsonSchema>): SafeHtml {
  const media = firstMedia(body);
  if (!media) return html``;
  const schema = (media.value.schema ?? {}) as JsonSchema;
  return html`<h4>Request body</h4>
<p><code>${media.type}</code> — ${refName(schema) ?? 'object'}</p>
${renderFields(schema, components)}
${media.value.example !== undefined && renderExample('Example request', media.value.example)}`;
}

function renderResponse(status: string, response: JsonSchema, components: Record<string, JsonSchema>): SafeHtml {
  const media = response.content ? firstMedia(response) : undefined;
  const schema = media ? ((media.value.schema ?? {}) as JsonSchema) : undefined;
  const headers = Object.entries((response.headers ?? {}) as Record<string, JsonSchema>);
  return html`<h5><span class="status">${status}</span> ${prose(String(response.description ?? ''))}</h5>
${headers.length > 0 && html`<p>Headers: ${headers.map(([name, header], index) => html`${index > 0 ? ', ' : ''}<code>${name}</code> (${String(header.description ?? '')})`)}</p>`}
${media && html`<p><code>${media.type}</code>${schema && refName(schema) ? html` — ${refName(schema)}` : ''}</p>`}
${schema && refName(schema) ? html`<details><summary>Fields</summary>${renderFields(schema, components)}</details>` : ''}
${media?.value.example !== undefined && renderExample('Example response', media?.value.example)}`;
}

function renderErrors(failures: Array<[string, JsonSchema]>): SafeHtml {
  const rows = failures.flatMap(([status, response]) => {
    const examples = (firstMedia(response)?.value.examples ?? {}) as Record<string, { value: { error: { code: string; message: string } } }>;
    return Object.values(examples).map((example) => ({ status, code: example.value.error.code, meaning: example.value.error.message }));
  });
  return html`<h4>Errors</h4>
<table><thead><tr><th>Status</th><th>error.code</th><th>Meaning</th></tr></thead><tbody>
${rows.map((row) => html`<tr><td class="status">${row.status}</td><td><code>${row.code}</code></td><td>${row.meaning}</td></tr>`)}
</tbody></table>`;
}

function renderFields(schema: JsonSchema, components: Record<string, JsonSchema>): SafeHtml {
  const fields = schemaFields(schema, components);
  if (fields.length === 0) return html``;
  return html`<table><thead><tr><th>Field</th><th>Type</th><th>Notes</th></tr></thead><tbody>
${fields.map((field) => html`<tr><td><code>${field.path}</code>${field.required && html` <span class="req">required</span>`}</td><td>${field.type}</td><td>${prose(field.notes.join(' '))}</td></tr>`)}
</tbody></table>`;
}

function renderExample(label: string, example: unknown): SafeHtml {
  return html`<details><summary>${label}</summary><pre>${JSON.stringify(example, null, 2)}</pre></details>`;
}

function constraintNotes(schema: JsonSchema): string[] {
  const notes: string[] = [];
  if (Array.isArray(schema.enum)) notes.push(`One of: ${schema.enum.map((value) => `\`${String(value)}\``).join(', ')}.`);
  if (typeof schema.minimum === 'number' && typeof schema.maximum === 'number') notes.push(`${schema.minimum}–${schema.maximum}.`);
  if (schema.format === 'date-time') notes.push('RFC 3339 date-time.');
  if (schema.default !== undefined) notes.push(`Default \`${JSON.stringify(schema.default)}\`.`);
  return notes;
}

function firstMedia(holder: JsonSchema): { type: string; value: JsonSchema } | undefined {
  const entry = Object.entries((holder.content ?? {}) as Record<string, JsonSchema>)[0];
  return entry ? { type: entry[0], value: entry[1] } : undefined;
}

function operationEntries(document: OpenApiDocument): OperationEntry[] {
  return Object.entries(document.paths).flatMap(([path, methods]) => Object.entries(methods).map(([method, operation]) => ({ method, path, operation })));
}

function firstTag(entry: OperationEntry): string | undefined {
  return (entry.operation.tags as string[] | undefined)?.[0];
}

function anchor(entry: OperationEntry): string {
  return `op-${String(entry.operation.operationId)}`;
}

function slug(text: string): string {
  return text.toLowerCase().replace(/[^a-z0-9]+/g, '-');
}

/** The stylesheet is the project's own constant, not document text, so it goes in unescaped. */
function rawStyle(): SafeHtml {
  return new SafeHtml(DOCS_PAGE_STYLE);
}
