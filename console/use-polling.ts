import { useEffect, useState } from 'preact/hooks';
import { describeFailure } from './api';

/** How often open views refresh themselves, so the page follows the work without a reload. */
export const REFRESH_MS = 3000;

export interface Polled<T> {
  value?: T;
  error?: string;
  reload(): void;
}

/** Loads `load()` now and every REFRESH_MS while mounted (and again when `key` changes). */
export function usePolling<T>(load: () => Promise<T>, key: string): Polled<T> {
  const [value, setValue] = useState<T | undefined>(undefined);
  const [error, setError] = useState<string | undefined>(undefined);
  const [tick, setTick] = useState(0);
  useEffect(() => {
    let live = true;
    const run = () =>
      load().then(
        (loaded) => {
          if (!live) return;
          setValue(loaded);
          setError(undefined);
        },
        (failure: unknown) => live && setError(describeFailure(failure)),
      );
    void run();
    const timer = setInterval(run, REFRESH_MS);
    return () => {
      live = false;
      clearInterval(timer);
    };
  }, [key, tick]);
  return { value, error, reload: () => setTick((count) => count + 1) };
}
