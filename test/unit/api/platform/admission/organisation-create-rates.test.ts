import { OrganisationCreateRates } from '../../../../../src/api/platform/admission/organisation-create-rates';

beforeEach(() => jest.useFakeTimers({ now: Date.parse('2026-11-27T12:00:00Z') }));
afterEach(() => jest.useRealTimers());

function send(rates: OrganisationCreateRates, holder: string, creates: number): void {
  for (let index = 0; index < creates; index++) rates.record(holder);
}

describe('OrganisationCreateRates', () => {
  it('counts an organisation alone among the busiest', () => {
    const rates = new OrganisationCreateRates();
    send(rates, 'test/acme', 3);
    expect(rates.isAmongBusiest('test/acme')).toBe(true);
  });

  it('tells a flooding organisation from a quiet one', () => {
    const rates = new OrganisationCreateRates();
    send(rates, 'test/flood', 80);
    send(rates, 'test/quiet', 5);
    expect(rates.isAmongBusiest('test/flood')).toBe(true);
    expect(rates.isAmongBusiest('test/quiet')).toBe(false);
    expect(rates.isAmongBusiest('live/flood')).toBe(false);
  });

  it('forgets creates older than ten seconds', () => {
    const rates = new OrganisationCreateRates();
    send(rates, 'test/flood', 80);
    jest.advanceTimersByTime(11_000);
    send(rates, 'test/quiet', 5);
    expect(rates.isAmongBusiest('test/flood')).toBe(false);
    expect(rates.isAmongBusiest('test/quiet')).toBe(true);
  });
});
