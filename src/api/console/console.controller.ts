import { Body, Controller, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../platform/http/api-error';
import { ApiRoute } from '../platform/http/api-route';
import { describeFirstIssue } from '../platform/http/zod-issues';
import { accepted, RequestAuthenticator, unlessThrottled } from '../platform/http/request-authenticator';
import { loadConsoleAssets } from './console-assets';
import { CONSOLE_CSP, CONSOLE_PAGE } from './console-page';
import { CONSOLE_ROUTES, signInSchema } from './console.routes';
import { CONSOLE_SESSION_TTL_SECONDS, ConsoleSessions, csrfTokenMatches, type ConsoleIdentity } from '../platform/credentials/console-sessions';
import { CSRF_HEADER, sessionCookie, sessionCookieOf } from '../platform/credentials/session-cookie';

/** The console's page and assets, and its sign-in: the one place a browser holds a session instead of a key. */
@Controller()
export class ConsoleController {
  private readonly assets = loadConsoleAssets();

  constructor(
    private readonly sessions: ConsoleSessions,
    private readonly authenticator: RequestAuthenticator,
  ) {}

  @ApiRoute(CONSOLE_ROUTES.page)
  page(@Res({ passthrough: true }) reply: FastifyReply): string {
    void reply
      .header('content-type', 'text/html; charset=utf-8')
      .header('content-security-policy', CONSOLE_CSP)
      .header('cache-control', 'no-store')
      .header('referrer-policy', 'no-referrer')
      .header('x-content-type-options', 'nosniff');
    return CONSOLE_PAGE;
  }

  @ApiRoute(CONSOLE_ROUTES.asset)
  asset(@Req() request: FastifyRequest<{ Params: { asset: string } }>, @Res({ passthrough: true }) reply: FastifyReply): Buffer {
    const asset = this.assets.get(request.params.asset);
    if (!asset) throw ApiError.notFound(`Console asset ${request.params.asset} (is the console built? npm run build)`);
    void reply.header('content-type', asset.contentType).header('x-content-type-options', 'nosniff').header('cache-control', 'no-cache');
    return asset.body;
  }

  @ApiRoute(CONSOLE_ROUTES.signIn)
  async signIn(@Req() request: FastifyRequest, @Body() body: unknown, @Res({ passthrough: true }) reply: FastifyReply): Promise<ConsoleIdentity> {
    refuseOtherOrigins(request);
    const parsed = signInSchema.safeParse(body);
    if (!parsed.success) throw ApiError.invalidRequest(describeFirstIssue(parsed.error));
    const { credential } = parsed.data;
    const opened = accepted(
      await this.authenticator.attempt(request, () => this.sessions.open(credential), () => this.authenticator.isKnown(credential)),
      'The API key or reviewer credential is invalid or has been revoked',
    );
    void reply.header('set-cookie', sessionCookie(request, opened.cookieValue, CONSOLE_SESSION_TTL_SECONDS)).header('cache-control', 'no-store');
    return opened.identity;
  }

  @ApiRoute(CONSOLE_ROUTES.current)
  async current(@Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply): Promise<ConsoleIdentity | undefined> {
    const cookie = sessionCookieOf(request);
    const identity = cookie === undefined ? undefined : unlessThrottled(await this.authenticator.attempt(request, () => this.sessions.refresh(cookie)));
    void reply.header('cache-control', 'no-store');
    // Not signed in is an ordinary state of the page, not an error.
    if (!identity) void reply.status(204);
    return identity;
  }

  @ApiRoute(CONSOLE_ROUTES.signOut)
  async signOut(@Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply): Promise<void> {
    refuseOtherOrigins(request);
    const cookie = sessionCookieOf(request);
    const session = cookie === undefined ? undefined : await this.sessions.resolve(cookie);
    if (cookie !== undefined && session) {
      if (!csrfTokenMatches(request.headers[CSRF_HEADER] as string | undefined, session.csrfHash)) {
        throw new ApiError(403, 'FORBIDDEN', "Signing out needs the session's X-CSRF-Token");
      }
      await this.sessions.close(cookie);
    }
    void reply.header('set-cookie', sessionCookie(request, '', 0));
  }
}

/**
 * A browser names the page a request comes from; the session is only for pages of this origin,
 * as the browser saw it (through a trusted proxy: its scheme and host, TRUST_PROXY).
 */
function refuseOtherOrigins(request: FastifyRequest): void {
  const origin = request.headers.origin;
  if (origin !== undefined && origin !== `${request.protocol}://${request.host}`) {
    throw new ApiError(403, 'FORBIDDEN', 'The console session is only for pages of this origin');
  }
}
