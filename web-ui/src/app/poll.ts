import { ApiError } from './api';

/**
 * Asks `ask` every `everyMs`, one ask at a time: the next is timed from the answer to the one before, so answers slower
 * than the period never pile up asks. Stops once `answered` returns true, `failed` returns false for a failure, or
 * `stop()` is called. After a failure it waits the server's Retry-After (an {@link ApiError}'s) when that is longer, up
 * to {@link LONGEST_WAIT_MS}.
 */
/**
 * The longest a poll waits after a failure, whatever the Retry-After: a browser's timer takes a delay past 2^31 − 1 ms
 * (about 25 days) as none, so a Retry-After that large made the poll ask again at once after every answer.
 */
export const LONGEST_WAIT_MS = 60_000;

export function poll<T>(
  ask: () => Promise<T>,
  everyMs: number,
  answered: (value: T) => boolean,
  failed: (error: unknown) => boolean = () => true,
): { stop(): void } {
  let stopped = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const next = (ms: number) => {
    if (!stopped) timer = setTimeout(tick, ms);
  };
  const tick = async () => {
    let wait = everyMs;
    try {
      const value = await ask();
      if (stopped || answered(value)) {
        stopped = true;
        return;
      }
    } catch (e) {
      if (stopped || !failed(e)) {
        stopped = true;
        return;
      }
      if (e instanceof ApiError && e.retryAfter) wait = Math.min(Math.max(wait, e.retryAfter * 1000), LONGEST_WAIT_MS);
    }
    next(wait);
  };
  next(everyMs);
  return {
    stop() {
      stopped = true;
      clearTimeout(timer);
    },
  };
}
