import type { ArgumentsHost } from '@nestjs/common';
import { ApiError } from '../../../../../src/api/platform/http/api-error';
import { ApiExceptionFilter } from '../../../../../src/api/platform/http/api-exception.filter';
import type { ApiRoutes } from '../../../../../src/api/platform/http/api-routes';

/** Serves `error` through the filter and returns the log calls and the answer it sent. */
function serve(error: unknown) {
  const log = { warn: jest.fn(), error: jest.fn() };
  const sent: { status?: number; body?: unknown } = {};
  const reply = {
    status: (status: number) => ((sent.status = status), reply),
    headers: () => reply,
    type: () => reply,
    send: (body: unknown) => ((sent.body = body), reply),
  };
  const request = { id: 'req_1', log, routeOptions: { url: '/v1/ai/tasks' }, url: '/v1/ai/tasks', method: 'GET' };
  const host = { switchToHttp: () => ({ getRequest: () => request, getResponse: () => reply }) } as unknown as ArgumentsHost;
  new ApiExceptionFilter({} as ApiRoutes).catch(error, host);
  return { log, sent };
}

describe('ApiExceptionFilter', () => {
  it('logs a 5xx the code chose as a refusal, without a stack', () => {
    const { log, sent } = serve(new ApiError(503, 'SERVICE_UNAVAILABLE', 'This instance is shutting down; retry'));
    expect(sent.status).toBe(503);
    expect(log.error).not.toHaveBeenCalled();
    expect(log.warn).toHaveBeenCalledWith({ code: 'SERVICE_UNAVAILABLE', status: 503 }, 'request refused');
  });

  it('logs an error nothing anticipated with its stack, and answers 500 without it', () => {
    const failure = new TypeError('undefined is not a function');
    const { log, sent } = serve(failure);
    expect(log.error).toHaveBeenCalledWith({ err: failure }, 'request failed');
    expect(sent).toEqual({ status: 500, body: { error: { code: 'INTERNAL', message: expect.not.stringContaining('undefined'), request_id: 'req_1' } } });
  });

  it('logs nothing for a client error', () => {
    const { log, sent } = serve(ApiError.notFound('Task task_1'));
    expect(sent.status).toBe(404);
    expect(log.warn).not.toHaveBeenCalled();
    expect(log.error).not.toHaveBeenCalled();
  });
});
