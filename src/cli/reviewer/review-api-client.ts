import type { OperatorAssessmentView, PendingAssessment } from '../../common/review/assessment-review-client';
import type { AssessmentReviewSnapshot, ReviewVerdict } from '../../contract';
import { AssayApiError } from '../../sdk';
import { HttpTransport, type FetchFunction, type HttpResponse } from '../../sdk/http-transport';

const REVIEW_PATH = 'v1/review/assessments';
const READ_TIMEOUT_MS = 30_000;

export interface ReviewApiClientOptions {
  baseUrl: string;
  credential: string;
  /** How long an action may take: longer than the API's own wait for a worker (REVIEW_UPDATE_TIMEOUT_MS). */
  actionTimeoutMs: number;
  fetch?: FetchFunction;
}

/**
 * The review operations of the HTTP API, with a reviewer credential: the CLI needs no access to
 * Temporal, and the reviewer recorded is whoever the credential belongs to.
 */
export class ReviewApiClient {
  private readonly transport: HttpTransport;

  constructor(private readonly options: ReviewApiClientOptions) {
    this.transport = new HttpTransport(options.baseUrl, options.credential, options.fetch ?? ((url, init) => fetch(url, init)));
  }

  async pending(): Promise<PendingAssessment[]> {
    return bodyOf<{ data: PendingAssessment[] }>(await this.transport.send({ method: 'GET', path: REVIEW_PATH, timeoutMs: READ_TIMEOUT_MS })).data;
  }

  async show(assessmentId: string): Promise<OperatorAssessmentView> {
    return bodyOf(await this.transport.send({ method: 'GET', path: assessmentPath(assessmentId), timeoutMs: READ_TIMEOUT_MS }));
  }

  claim(assessmentId: string): Promise<AssessmentReviewSnapshot> {
    return this.act(assessmentId, 'claim');
  }

  release(assessmentId: string): Promise<AssessmentReviewSnapshot> {
    return this.act(assessmentId, 'release');
  }

  complete(assessmentId: string, request: { verdict: ReviewVerdict; notes: string }): Promise<AssessmentReviewSnapshot> {
    return this.act(assessmentId, 'complete', request);
  }

  private async act(assessmentId: string, action: string, body?: unknown): Promise<AssessmentReviewSnapshot> {
    return bodyOf(await this.transport.send({ method: 'POST', path: `${assessmentPath(assessmentId)}/${action}`, body, timeoutMs: this.options.actionTimeoutMs }));
  }
}

function assessmentPath(assessmentId: string): string {
  return `${REVIEW_PATH}/${encodeURIComponent(assessmentId)}`;
}

/** The API documents these bodies (OpenAPI); anything that is not a JSON object is not one of them. */
function bodyOf<T>(response: HttpResponse): T {
  if (typeof response.body !== 'object' || response.body === null) {
    throw new AssayApiError({ status: response.status, code: 'UNEXPECTED_RESPONSE', message: 'The response body is not a JSON object', request_id: response.headers.get('x-request-id') ?? undefined });
  }
  return response.body as T;
}
