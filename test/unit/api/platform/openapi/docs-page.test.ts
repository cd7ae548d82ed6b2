import { z } from 'zod';
import type { ApiOperation } from '../../../../../src/api/platform/openapi/api-operation';
import { buildOpenApiDocument } from '../../../../../src/api/platform/openapi/build-openapi-document';
import { documentInfo } from '../../../../../src/api/platform/openapi/document-info';
import { renderDocsPage } from '../../../../../src/api/platform/openapi/docs-page/render-docs-page';
import { API_TAGS } from '../../../../../src/api/platform/openapi/api-tags';
import { API_OPERATIONS } from '../../../../support/api-operations';
import { WEBHOOKS_DOC } from '../../../../../src/api/webhooks/webhook-events';

const page = renderDocsPage(buildOpenApiDocument(API_OPERATIONS, API_TAGS, documentInfo(), WEBHOOKS_DOC));

function articleOf(operationId: string): string {
  const start = page.indexOf(`<article class="operation" id="op-${operationId}">`);
  if (start < 0) throw new Error(`no article for ${operationId}`);
  return page.slice(start, page.indexOf('</article>', start));
}

describe('the docs page', () => {
  it('has a section, with method and path, for every operation in the document', () => {
    for (const operation of API_OPERATIONS) {
      const article = articleOf(operation.operationId);
      expect(article).toContain(`${operation.method.toUpperCase()}</span><code>${operation.path}</code>`);
      expect(page).toContain(`href="#op-${operation.operationId}"`);
    }
  });

  it('shows a request body field by field, with the limits from the schema', () => {
    const article = articleOf('createTask');
    expect(article).toMatch(/<code>input\.max_sentences<\/code><\/td><td>integer<\/td><td>Value 1–20\.<\/td>/);
    expect(article).toMatch(/<code>task_type<\/code> <span class="req">required<\/span>/);
    expect(article).toContain('Idempotency-Key');
  });

  it('lists the error codes of each operation with their status', () => {
    const article = articleOf('getTask');
    for (const [status, code] of [['401', 'UNAUTHORIZED'], ['404', 'NOT_FOUND'], ['503', 'SERVICE_UNAVAILABLE']]) {
      expect(article).toContain(`<td class="status">${status}</td><td><code>${code}</code></td>`);
    }
  });

  it('works offline: no script and nothing loaded from elsewhere', () => {
    expect(page).not.toMatch(/<script/i);
    expect(page).not.toMatch(/(src|href)="(https?:)?\/\//i);
  });

  it('escapes every text that comes from the document', () => {
    const hostile: ApiOperation = {
      method: 'get',
      path: '/x/{id}',
      operationId: 'hostile',
      tag: 'T',
      summary: '<img src=x onerror=alert(1)>',
      description: 'Quote " and `<b>code</b>`',
      pathParameters: [{ name: 'id', description: '<script>alert(1)</script>' }],
      responses: [{ status: 200, description: 'ok', body: { name: 'X', schema: z.object({ a: z.string().meta({ description: '</td><script>' }) }) }, example: { a: '</pre><script>' } }],
      errors: [],
    };
    const html = renderDocsPage(buildOpenApiDocument([hostile], [{ name: 'T', description: '<i>tag</i>' }], { title: '<T>', version: '1', description: 'd' }, WEBHOOKS_DOC));
    expect(html).not.toMatch(/<script|<img|<b>|<i>tag/);
    expect(html).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(html).toContain('<code>&lt;b&gt;code&lt;/b&gt;</code>');
  });
});
