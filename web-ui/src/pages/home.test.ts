import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '../app/api';
import { endOffered, isGone } from './home';

describe('the home page\'s offer of a game in play, when a new one is started', () => {
  it('is forgotten once the game it offered is resigned', async () => {
    const forget = vi.fn();
    await endOffered(() => Promise.resolve(), forget);
    expect(forget).toHaveBeenCalledOnce();
  });

  it.each([
    ['a 503 while a service restarts', new ApiError(503, 'busy')],
    ['no network', new ApiError(0, 'offline')],
    ['a fetch that failed outright', new TypeError('Failed to fetch')],
    ['a 409 (the game changed meanwhile)', new ApiError(409, 'changed')],
  ])('a resignation that fails with %s starts the new game all the same and keeps the offer', async (_why, error) => {
    const forget = vi.fn();
    await expect(endOffered(() => Promise.reject(error), forget)).resolves.toBeUndefined();
    expect(forget).not.toHaveBeenCalled();
    expect(isGone(error)).toBe(false);
  });

  it.each([403, 404])('a game gone or no longer the player\'s (%i) is forgotten', async (status) => {
    const forget = vi.fn();
    await endOffered(() => Promise.reject(new ApiError(status, 'gone')), forget);
    expect(forget).toHaveBeenCalledOnce();
    expect(isGone(new ApiError(status, 'gone'))).toBe(true);
  });
});
