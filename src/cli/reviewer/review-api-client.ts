import type { OperatorAssessmentView, PendingAssessment } from '../../contract/wire';
import type { AssessmentReviewSnapshot, ReviewVerdict } from '../../contract';
import { AssayApiError, type ListPage } from '../../sdk';
import { HttpTransport, type FetchFunction, type HttpResponse } from '../../sdk/http-transport';
import { followPages, listPageFrom, listQueryString } from '../../sdk/list-pages';

const REVIEW_PATH = 'v1/review/assessments';
const READ_TIMEOUT_MS = 30_000;

/** The review queue's filters and paging; a cursor is bound to the filters it was issued with. */
export interface ReviewQueueQuery {
  /** Only assessments past their current deadline. */
  overdue?: boolean;
  /** Only assessments the credential's reviewer holds. */
  claimed_by_me?: boolean;
  /** Only assessments whose active review stage has this name. */
  stage?: string;
  /** Only assessments whose active review stage belongs to this reviewer group. */
  group?: string;
  /** Items per page, 1 to 100 (the service's default is 20). */
  limit?: number;
  cursor?: string;
}

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

  /** One page of the queue, earliest deadline first. */
  async queuePage(query: ReviewQueueQuery = {}): Promise<ListPage<PendingAssessment>> {
    const response = await this.transport.send({ method: 'GET', path: `${REVIEW_PATH}${listQueryString(query)}`, timeoutMs: READ_TIMEOUT_MS });
    return listPageFrom(response, (item) => bodyOf<PendingAssessment>(item));
  }

  /** Every page from `query`'s on, following next_cursor. */
  queuePages(query: ReviewQueueQuery = {}): AsyncGenerator<ListPage<PendingAssessment>, void, undefined> {
    return followPages(query, (pageQuery) => this.queuePage(pageQuery));
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
