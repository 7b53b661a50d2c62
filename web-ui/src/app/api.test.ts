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

describe('a game of a chosen seed', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.resetModules();
  });

  /** fetch that answers a new game and keeps the bodies sent. */
  function server(): string[] {
    const sent: string[] = [];
    storage();
    vi.stubGlobal('fetch', (_url: string, init: RequestInit) => {
      sent.push(String(init.body));
      return Promise.resolve(new Response(JSON.stringify({ id: 'g1', level: 'EASY' }), { status: 201 }));
    });
    return sent;
  }

  it('sends a 64-bit seed exactly, as the replays show it (a JS number would round it to another game)', async () => {
    const sent = server();
    const { games } = await import('./api');
    await games.create('EASY', '-9223372036854775807');
    await games.create('HARD', '42');
    await games.create('EXPERT');
    await games.create('MEDIUM', '+007');
    await games.create('MEDIUM', '000');
    expect(sent).toEqual(['{"level":"EASY","seed":-9223372036854775807}', '{"level":"HARD","seed":42}', '{"level":"EXPERT"}',
      '{"level":"MEDIUM","seed":7}', '{"level":"MEDIUM","seed":0}']);
  });

  it('refuses anything but a whole number, sending nothing', async () => {
    const sent = server();
    const { games, ApiError } = await import('./api');
    for (const bad of ['1e3', '12,3', '1}, "x": {', '', '-', '12345678901234567890', '1 2'])
      await expect(games.create('EASY', bad)).rejects.toBeInstanceOf(ApiError);
    expect(sent).toEqual([]);
  });
});
