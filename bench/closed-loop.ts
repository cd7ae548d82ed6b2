/** Runs `job(0..count-1)` with at most `concurrency` in flight, as fast as they complete. */
export async function runClosedLoop(count: number, concurrency: number, job: (index: number) => Promise<void>): Promise<void> {
  let next = 0;
  const lane = async () => {
    while (next < count) await job(next++);
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, count) }, lane));
}
