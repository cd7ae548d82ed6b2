import { parseReviewQueueRequest } from '../../../../src/api/review/review-queue.request';

describe('the review queue query string', () => {
  it('defaults to the first page of 20 with no filter', () => {
    expect(parseReviewQueueRequest({})).toEqual({ limit: 20, overdue: false, claimedByMe: false });
    expect(parseReviewQueueRequest(undefined)).toEqual({ limit: 20, overdue: false, claimedByMe: false });
  });

  it('reads the filters, the page size and the cursor', () => {
    expect(parseReviewQueueRequest({ limit: '5', cursor: 'abc.def', overdue: 'true', claimed_by_me: 'true' })).toEqual({ limit: 5, cursor: 'abc.def', overdue: true, claimedByMe: true });
    expect(parseReviewQueueRequest({ overdue: 'false', claimed_by_me: 'false' })).toEqual({ limit: 20, overdue: false, claimedByMe: false });
  });

  it('reads the stage and the reviewer group to narrow the queue to', () => {
    expect(parseReviewQueueRequest({ stage: 'network', group: 'sec_ops-2' })).toEqual({ limit: 20, overdue: false, claimedByMe: false, stage: 'network', group: 'sec_ops-2' });
    expect(parseReviewQueueRequest({ stage: 'review' })).toEqual({ limit: 20, overdue: false, claimedByMe: false, stage: 'review' });
  });

  it.each([
    [{ overdue: 'yes' }, /^overdue: /],
    [{ claimed_by_me: '1' }, /^claimed_by_me: /],
    [{ limit: '101' }, /^limit: /],
    [{ limit: '0' }, /^limit: /],
    [{ cursor: '' }, /^cursor: /],
    [{ stage: 'Network' }, /^stage: /],
    [{ stage: '' }, /^stage: /],
    [{ group: 'x'.repeat(33) }, /^group: /],
    [{ group: 'sec ops' }, /^group: /],
    [{ reviewer: 'alice' }, /reviewer/],
  ])('refuses %j with 400 naming the parameter', (query, message) => {
    expect(() => parseReviewQueueRequest(query)).toThrow(expect.objectContaining({ status: 400, code: 'INVALID_REQUEST', message: expect.stringMatching(message) }));
  });
});
