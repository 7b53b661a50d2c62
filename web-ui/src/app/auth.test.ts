import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

const TOKEN_ENDPOINT = 'http://kc/realms/bloc-eclat/protocol/openid-connect/token';

/** A token shaped as Keycloak's (a JWT; unsigned: the page reads its claims, it never checks a signature). */
function jwt(claims: Record<string, unknown>): string {
  const part = (o: unknown) => btoa(JSON.stringify(o)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
  return `${part({ alg: 'none' })}.${part(claims)}.sig`;
}

const OLD_ACCESS = jwt({ sub: 'sub-ann', realm_access: { roles: ['player'] } });

/** A tab whose stored tokens expired a while ago, and Keycloak answering the refresh with `status` (0: not reached). */
function expiredSession(status: number): string[] {
  const items = new Map<string, string>([['bloc.tokens', JSON.stringify({ access: OLD_ACCESS, refresh: 'r', id: jwt({ preferred_username: 'ann' }), expiresAt: 0 })]]);
  vi.stubGlobal('sessionStorage', {
    getItem: (k: string) => items.get(k) ?? null,
    setItem: (k: string, v: string) => void items.set(k, v),
    removeItem: (k: string) => void items.delete(k),
  });
  const calls: string[] = [];
  vi.stubGlobal('fetch', async (url: string, init?: RequestInit) => {
    calls.push(`${init?.method ?? 'GET'} ${url} ${JSON.stringify(init?.headers ?? {})}`);
    if (url === '/config.json') {
      return new Response(JSON.stringify({ keycloakUrl: 'http://kc', realm: 'bloc-eclat', clientId: 'web-ui', solverUrl: '', leaderboardUrl: '' }));
    }
    if (url === TOKEN_ENDPOINT) {
      if (status === 0) throw new TypeError('Failed to fetch'); // no network, Keycloak unreachable
      return new Response('{"error":"invalid_grant"}', { status });
    }
    return new Response('{"id":"g"}', { status: 201 });
  });
  return calls;
}

beforeEach(() => {
  vi.resetModules();
});

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('a login session that ends under the player', () => {
  it('Keycloak refusing the refresh (idle timeout, session maximum) fails the call: it never goes out as a guest\'s', async () => {
    const calls = expiredSession(400);
    await (await import('./config')).loadConfig();
    const auth = await import('./auth');
    const api = await import('./api');
    const ended = vi.fn();
    auth.onSessionEnded(ended);
    await expect(api.games.create('EASY')).rejects.toMatchObject({ status: 401 });
    expect(auth.sessionEnded()).toBe(true);
    expect(ended).toHaveBeenCalledOnce();
    // the next call too (before: the refresh's refusal made every later call a guest's), and no game was asked for
    await expect(api.games.create('EASY')).rejects.toMatchObject({ status: 401 });
    expect(calls.filter((c) => c.startsWith('POST /api/games'))).toEqual([]);
    // the player chooses to go on as a guest: then calls go out without a token
    auth.continueAsGuest();
    await api.games.create('EASY');
    expect(calls.filter((c) => c.startsWith('POST /api/games'))).toHaveLength(1);
    expect(calls.find((c) => c.startsWith('POST /api/games'))).not.toContain('Authorization');
  });

  it('a session ended is remembered by the tab: a reload does not make the player a guest either', async () => {
    expiredSession(401);
    await (await import('./config')).loadConfig();
    await expect((await import('./auth')).accessToken()).rejects.toBeInstanceOf((await import('./auth')).SessionEnded);
    vi.resetModules();
    const reloaded = await import('./auth');
    expect(reloaded.sessionEnded()).toBe(true);
    await expect(reloaded.accessToken()).rejects.toBeInstanceOf(reloaded.SessionEnded);
  });

  it.each([503, 429, 0])('Keycloak away, failing or throttling (status %i, 0 when not reached) ends nothing: the token held is still sent, and the service judges it', async (status) => {
    expiredSession(status);
    await (await import('./config')).loadConfig();
    const auth = await import('./auth');
    expect(await auth.accessToken()).toBe(OLD_ACCESS);
    expect(auth.sessionEnded()).toBe(false);
  });

  it('the other services\' calls (boards, the solver) go out as a guest\'s meanwhile: they are the same for one', async () => {
    const calls = expiredSession(400);
    await (await import('./config')).loadConfig();
    const api = await import('./api');
    await expect(api.call('', '/api/games/x')).rejects.toMatchObject({ status: 401 });
    await api.call('http://leaderboard', '/api/leaderboards/HARD');
    expect(calls.find((c) => c.includes('/api/leaderboards/HARD'))).not.toContain('Authorization');
  });
});

describe('tokens kept by the tab', () => {
  it.each([
    ['not JSON', '{'],
    ['not tokens', '"a-token"'],
    ['an access token that is no JWT', JSON.stringify({ access: 'x', refresh: 'r', id: jwt({}), expiresAt: 0 })],
    ['a JWT whose claims are no object', JSON.stringify({ access: 'a.bnVsbA.s', refresh: 'r', id: jwt({}), expiresAt: 0 })],
    ['no expiry', JSON.stringify({ access: OLD_ACCESS, refresh: 'r', id: jwt({}) })],
  ])('that cannot be read (%s) are forgotten: the player is a guest, and the page is drawn', async (_, kept) => {
    const items = new Map([['bloc.tokens', kept]]);
    vi.stubGlobal('sessionStorage', {
      getItem: (k: string) => items.get(k) ?? null,
      setItem: (k: string, v: string) => void items.set(k, v),
      removeItem: (k: string) => void items.delete(k),
    });
    const auth = await import('./auth');
    expect(auth.user()).toBeNull();
    expect(auth.isAdmin()).toBe(false);
    expect(await auth.accessToken()).toBeNull();
    expect(items.has('bloc.tokens')).toBe(false);
  });

  it('that can be read are the player\'s', async () => {
    vi.stubGlobal('sessionStorage', {
      getItem: (k: string) => (k === 'bloc.tokens'
        ? JSON.stringify({ access: OLD_ACCESS, refresh: 'r', id: jwt({ preferred_username: 'ann' }), expiresAt: Date.now() + 60_000 })
        : null),
      setItem: () => undefined,
      removeItem: () => undefined,
    });
    const auth = await import('./auth');
    expect(auth.user()).toEqual({ subject: 'sub-ann', name: 'ann', roles: ['player'] });
    expect(await auth.accessToken()).toBe(OLD_ACCESS);
  });
});

describe('coming back from Keycloak', () => {
  it('without the login\'s check kept (the browser keeps no data for this site) says so and clears the code from the address bar', async () => {
    vi.stubGlobal('sessionStorage', { getItem: () => null, setItem: () => undefined, removeItem: () => undefined });
    vi.stubGlobal('location', { search: '?code=secret-code&state=s1', pathname: '/', hash: '#/solo/new' });
    const replaced: string[] = [];
    vi.stubGlobal('history', { replaceState: (_s: unknown, _t: string, url: string) => void replaced.push(url) });
    const tokenCalls = vi.fn();
    vi.stubGlobal('fetch', tokenCalls);
    const auth = await import('./auth');
    await expect(auth.completeLogin()).rejects.toThrow(/keeps no data for this site/);
    expect(replaced).toEqual(['/#/solo/new']);
    expect(tokenCalls).not.toHaveBeenCalled();
  });
});
