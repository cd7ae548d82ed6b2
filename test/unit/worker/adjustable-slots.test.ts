import { AdjustableSlots } from '../../../src/worker/adjustable-slots';

const reserve = (slots: AdjustableSlots, signal = new AbortController().signal) => {
  let granted = false;
  const permit = slots.reserveSlot({}, signal).then(() => (granted = true));
  return { permit, granted: () => granted };
};
const turn = () => new Promise((resolve) => setImmediate(resolve));

describe('AdjustableSlots', () => {
  it('grants up to its size, then holds a reservation until a slot is released', async () => {
    const slots = new AdjustableSlots(2);
    await slots.reserveSlot({}, new AbortController().signal);
    expect(slots.tryReserveSlot()).toEqual({});
    const third = reserve(slots);
    await turn();
    expect(third.granted()).toBe(false);
    expect(slots.tryReserveSlot()).toBeNull();
    slots.releaseSlot();
    await third.permit;
    expect(third.granted()).toBe(true);
  });

  it('grants waiting reservations as it grows, and takes none back as it shrinks', async () => {
    const slots = new AdjustableSlots(1);
    expect(slots.tryReserveSlot()).toEqual({});
    const waiting = [reserve(slots), reserve(slots), reserve(slots)];
    slots.resize(3);
    await turn();
    expect(waiting.map((reservation) => reservation.granted())).toEqual([true, true, false]);
    slots.resize(1);
    // Three held against a size of one: the waiting one stays waiting until two are released and one more.
    slots.releaseSlot();
    slots.releaseSlot();
    await turn();
    expect(waiting[2].granted()).toBe(false);
    slots.releaseSlot();
    await turn();
    expect(waiting[2].granted()).toBe(true);
  });

  it('rejects an abandoned reservation with its reason and gives its place to no one', async () => {
    const slots = new AdjustableSlots(1);
    expect(slots.tryReserveSlot()).toEqual({});
    const aborted = new AbortController();
    const abandoned = slots.reserveSlot({}, aborted.signal);
    const reason = new Error('no longer needed');
    aborted.abort(reason);
    await expect(abandoned).rejects.toBe(reason);
    slots.releaseSlot();
    expect(slots.tryReserveSlot()).toEqual({});
  });
});
