import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ApiRoutes } from './api-routes';
import type { AuthenticatedRequest, RequestAuthenticator, ReviewerRequest } from './request-authenticator';
import { unmatchedRouteError } from './unmatched-route';
import { closeConnectionsLeftSending } from './unread-body';

/**
 * Checks the credential when the request's headers have arrived, before a byte of its body is
 * read: a caller without a valid credential costs the API no body buffered, parsed or held.
 * Public operations (health, the docs, the console's page and sign-in) need none; a path no
 * route serves is answered its 404 or 405 here too, since Fastify's not-found route reads the
 * body first.
 */
export function authenticateBeforeBody(fastify: FastifyInstance, authenticator: RequestAuthenticator, routes: ApiRoutes): void {
  fastify.addHook('onRequest', async (request: FastifyRequest) => {
    const routeUrl = request.routeOptions.url;
    if (routeUrl === undefined) throw unmatchedRouteError(request, routes);
    const operation = routes.operationServing(request.method, routeUrl);
    if (operation?.public) return;
    await authenticator.authenticate(request as AuthenticatedRequest & ReviewerRequest, operation?.reviewer === true);
  });
  closeConnectionsLeftSending(fastify);
}
