import { parsePreferWait } from '../../../../../src/api/platform/http/prefer-wait';

describe('Prefer: wait', () => {
  it.each([
    ['wait=5', 5],
    ['respond-async, wait=10', 10],
    ['WAIT = "7"', 7],
    ['wait=0', 0],
    ['wait=3600', 60],
    ['handling=lenient, wait=2; foo=bar', 2],
  ])('reads %p as %p seconds', (header, seconds) => {
    expect(parsePreferWait(header)).toBe(seconds);
  });

  it.each([undefined, '', 'respond-async', 'wait=soon', 'wait=-1', 'wait=1.5'])('ignores %p', (header) => {
    expect(parsePreferWait(header)).toBeUndefined();
  });
});
