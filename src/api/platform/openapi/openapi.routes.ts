import type { ApiOperation } from './api-operation';

/** The API's own description; OpenApiController serves both without an API key. */
export const OPENAPI_ROUTES = {
  document: {
    method: 'get',
    path: '/openapi.json',
    operationId: 'getOpenApiDocument',
    tag: 'Operations',
    public: true,
    summary: 'This OpenAPI 3.1 document',
    description: 'Generated at start from the route declarations and the zod schemas the API validates with.',
    responses: [{ status: 200, description: 'The document.', media: { contentType: 'application/json', description: 'OpenAPI 3.1' } }],
    errors: [],
  },
  docsPage: {
    method: 'get',
    path: '/docs',
    operationId: 'getDocsPage',
    tag: 'Operations',
    public: true,
    summary: 'API reference page',
    description: 'This document as one self-contained HTML page: no scripts, no external assets.',
    responses: [{ status: 200, description: 'The page.', media: { contentType: 'text/html', description: 'HTML' } }],
    errors: [],
  },
} satisfies Record<string, ApiOperation>;
