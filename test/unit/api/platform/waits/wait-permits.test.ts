import type { AppConfig } from '../../../../../src/common/config/app-config';
import { WaitPermits } from '../../../../../src/api/platform/waits/wait-permits';

function permits(perInstance: number, perOrganisation: number): WaitPermits {
  return new WaitPermits({ values: { PREFER_WAIT_MAX_PER_INSTANCE: perInstance, PREFER_WAIT_MAX_PER_ORGANISATION: perOrganisation } } as AppConfig);
}

describe('WaitPermits', () => {
  it('lets one organisation hold at most its share, while another still gets permits', () => {
    const waits = permits(10, 2);
    const held = [waits.tryAcquire('test/acme'), waits.tryAcquire('test/acme')];
    expect(held.every((release) => release !== undefined)).toBe(true);
    expect(waits.tryAcquire('test/acme')).toBeUndefined();
    expect(waits.tryAcquire('test/globex')).toBeDefined();
    expect(waits.tryAcquire('live/acme')).toBeDefined();
  });

  it('lets the instance hold at most its bound over all organisations', () => {
    const waits = permits(2, 5);
    expect(waits.tryAcquire('test/a')).toBeDefined();
    expect(waits.tryAcquire('test/b')).toBeDefined();
    expect(waits.tryAcquire('test/c')).toBeUndefined();
  });

  it('gives a released permit back once, however often it is released', () => {
    const waits = permits(2, 2);
    const first = waits.tryAcquire('test/acme');
    const second = waits.tryAcquire('test/acme');
    first?.();
    first?.();
    expect(waits.tryAcquire('test/acme')).toBeDefined();
    expect(waits.tryAcquire('test/acme')).toBeUndefined();
    second?.();
    expect(waits.tryAcquire('test/acme')).toBeDefined();
  });

  it('holds nothing when the bound is 0', () => {
    expect(permits(0, 10).tryAcquire('test/acme')).toBeUndefined();
    expect(permits(10, 0).tryAcquire('test/acme')).toBeUndefined();
  });
});
