import { z } from 'zod';
import { CREDENTIAL_ENVIRONMENTS } from '../../contract';
import type { ApiOperation } from '../platform/openapi/api-operation';

const TAG = 'Console';

const identitySchema = z.object({
  kind: z.enum(['customer', 'reviewer']),
  organization_id: z.string().optional().meta({ description: 'A customer session: the organisation of its API key.' }),
  name: z.string().optional().meta({ description: 'A reviewer session: the reviewer.' }),
  environment: z.enum(CREDENTIAL_ENVIRONMENTS),
  csrf_token: z.string().meta({ description: 'Echo it in X-CSRF-Token on every state-changing request of the session; kept in the page only, never in storage.' }),
});
const IDENTITY = { name: 'ConsoleSession', schema: identitySchema };

export const signInSchema = z.object({ credential: z.string().max(200).meta({ description: 'An API key, or a reviewer credential.' }) }).strict();

/** The console's page, its assets and its session; public, since signing in is what they are for. */
export const CONSOLE_ROUTES = {
  page: {
    method: 'get',
    path: '/console',
    operationId: 'getConsole',
    tag: TAG,
    public: true,
    summary: 'The review and developer console',
    description: 'One page under a strict Content-Security-Policy; its script and stylesheet come from /console/assets.',
    responses: [{ status: 200, description: 'The page.', media: { contentType: 'text/html', description: 'HTML' } }],
    errors: [],
  },
  asset: {
    method: 'get',
    path: '/console/assets/{asset}',
    operationId: 'getConsoleAsset',
    tag: TAG,
    public: true,
    summary: "A file of the console's build",
    pathParameters: [{ name: 'asset', description: '`app.js`, `app.css` or `favicon.svg`.', example: 'app.js' }],
    responses: [{ status: 200, description: 'The file.', media: { contentType: 'text/javascript', description: 'The bundled script, or text/css for the stylesheet.' } }],
    errors: ['NOT_FOUND'],
  },
  signIn: {
    method: 'post',
    path: '/console/session',
    operationId: 'openConsoleSession',
    tag: TAG,
    public: true,
    summary: 'Sign the console in',
    description: 'Exchanges an API key or a reviewer credential for an HttpOnly, SameSite=Strict session cookie; the credential is not kept.',
    requestBody: { name: 'ConsoleSignIn', schema: signInSchema, example: { credential: 'assay_test_…' } },
    responses: [{ status: 201, description: 'Signed in; the cookie is set.', body: IDENTITY, headers: { 'Set-Cookie': { description: '`assay_console=…; Path=/; HttpOnly; SameSite=Strict`; over HTTPS `__Host-assay_console=…` and `Secure`.' } } }],
    errors: ['INVALID_REQUEST', 'UNAUTHORIZED', 'FORBIDDEN', 'RATE_LIMITED', 'SERVICE_UNAVAILABLE'],
  },
  current: {
    method: 'get',
    path: '/console/session',
    operationId: 'getConsoleSession',
    tag: TAG,
    public: true,
    summary: 'Who the console is signed in as, with a new CSRF token',
    responses: [
      { status: 200, description: 'The session.', body: IDENTITY },
      { status: 204, description: 'Not signed in (no session cookie, or its session or credential has ended).' },
    ],
    errors: ['RATE_LIMITED', 'SERVICE_UNAVAILABLE'],
  },
  signOut: {
    method: 'delete',
    path: '/console/session',
    operationId: 'closeConsoleSession',
    tag: TAG,
    public: true,
    summary: 'Sign the console out',
    description: 'Needs the X-CSRF-Token of the session.',
    responses: [{ status: 204, description: 'Signed out; the cookie is cleared.' }],
    errors: ['FORBIDDEN', 'SERVICE_UNAVAILABLE'],
  },
} satisfies Record<string, ApiOperation>;
