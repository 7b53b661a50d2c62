import { afterEach, describe, expect, it, vi } from 'vitest';

let giveToken: (token: string | null) => void = () => undefined;
vi.mock('./auth', () => ({ accessToken: () => new Promise<string | null>((resolve) => (giveToken = resolve)) }));
vi.mock('./api', () => ({ gameToken: () => undefined }));

describe('the match socket', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('a page left while its token is being fetched opens no socket afterwards', async () => {
    const opened: string[] = [];
    vi.stubGlobal('location', { href: 'http://localhost/#/match/m1' });
    vi.stubGlobal('WebSocket', class {
      static OPEN = 1;
      constructor(url: URL) {
        opened.push(String(url));
      }
      close(): void {}
    });
    const { MatchLive } = await import('./live');
    const live = new MatchLive('m1', { state: () => undefined, update: () => undefined });
    live.close();
    giveToken('a-token');
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(opened).toEqual([]);
  });
});
