import { afterEach, describe, expect, it, vi } from 'vitest';

vi.mock('./auth', () => ({ accessToken: () => Promise.resolve(null), SessionEnded: class extends Error {} }));
vi.mock('./config', () => ({ config: {} }));

/** A localStorage over a map; `full` makes every write refused, as a full one does. */
function storage(full = false) {
  const items = new Map<string, string>();
  vi.stubGlobal('localStorage', {
    getItem: (k: string) => items.get(k) ?? null,
    setItem: (k: string, v: string) => {
      if (full) throw new DOMException('quota', 'QuotaExceededError');
      items.set(k, v);
    },
  });
  return items;
}

describe('guest tokens kept on the device', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.resetModules();
  });

  it('the most recent games only, not every game ever played', async () => {
    const items = storage();
    const { rememberGameToken, MAX_GUEST_TOKENS } = await import('./api');
    for (let i = 0; i < MAX_GUEST_TOKENS + 50; i++) rememberGameToken([`game-${i}`], `token-${i}`);
    const kept = JSON.parse(items.get('bloc.gameTokens')!);
    expect(Object.keys(kept)).toHaveLength(MAX_GUEST_TOKENS);
    expect(kept['game-149']).toBe('token-149');
    expect(kept['game-49']).toBeUndefined();
  });

  it('a storage that refuses to write loses nothing of this visit and never fails the call that made the game', async () => {
    storage(true);
    const { rememberGameToken, gameToken } = await import('./api');
    expect(() => rememberGameToken(['g1', 'm1'], 'tok')).not.toThrow();
    expect(gameToken('g1')).toBe('tok');
    expect(gameToken('m1')).toBe('tok');
  });
});
