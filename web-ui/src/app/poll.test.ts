import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from './api';
import { LONGEST_WAIT_MS, poll } from './poll';

vi.mock('./auth', () => ({ accessToken: () => Promise.resolve(null) }));

describe('polling the server', () => {
  afterEach(() => vi.useRealTimers());

  it('asks one at a time: an answer slower than the period never piles asks up', async () => {
    vi.useFakeTimers();
    let inFlight = 0;
    let most = 0;
    let asks = 0;
    const p = poll(async () => {
      asks++;
      most = Math.max(most, ++inFlight);
      await new Promise((resolve) => setTimeout(resolve, 2500));
      inFlight--;
      return asks;
    }, 1000, (n) => n >= 4);
    await vi.advanceTimersByTimeAsync(30_000);
    expect(most).toBe(1);
    expect(asks).toBe(4);
    p.stop();
  });

  it('waits the server\'s Retry-After after a refusal, and stops when told or when a failure is final', async () => {
    vi.useFakeTimers();
    const at: number[] = [];
    const start = Date.now();
    let n = 0;
    poll(async () => {
      at.push(Date.now() - start);
      n++;
      if (n === 1) throw new ApiError(429, 'slow down', 5);
      if (n === 2) throw new ApiError(404, 'gone');
      return n;
    }, 1000, () => false, (e) => !(e instanceof ApiError && e.status === 404));
    await vi.advanceTimersByTimeAsync(60_000);
    expect(at).toEqual([1000, 6000]);

    let asked = 0;
    const p = poll(async () => ++asked, 1000, () => false);
    await vi.advanceTimersByTimeAsync(3500);
    p.stop();
    await vi.advanceTimersByTimeAsync(10_000);
    expect(asked).toBe(3);
  });

  it('waits no longer than a minute whatever the Retry-After: a timer past 2^31 - 1 ms fires at once', async () => {
    vi.useFakeTimers();
    const delays: number[] = [];
    const real = globalThis.setTimeout;
    const spy = vi.spyOn(globalThis, 'setTimeout').mockImplementation(((fn: () => void, ms?: number) => {
      delays.push(ms ?? 0);
      return real(fn, ms);
    }) as typeof setTimeout);
    const at: number[] = [];
    const start = Date.now();
    const p = poll(async () => {
      at.push(Date.now() - start);
      throw new ApiError(503, 'down for a while', 1e9);
    }, 1000, () => false);
    await vi.advanceTimersByTimeAsync(2 * LONGEST_WAIT_MS + 1000);
    p.stop();
    spy.mockRestore();
    expect(delays.every((ms) => ms <= LONGEST_WAIT_MS)).toBe(true);
    expect(at).toEqual([1000, 1000 + LONGEST_WAIT_MS, 1000 + 2 * LONGEST_WAIT_MS]);
  });
});
