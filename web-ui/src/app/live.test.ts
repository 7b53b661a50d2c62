import { afterEach, describe, expect, it, vi } from 'vitest';

/** The token fetch: answered at once, or held until the test gives it. */
let tokenAtOnce = false;
let giveToken: (token: string | null) => void = () => undefined;
vi.mock('./auth', () => ({
  accessToken: () => tokenAtOnce ? Promise.resolve(null)
    : new Promise<string | null>((resolve) => (giveToken = resolve)),
}));
vi.mock('./api', () => ({ gameToken: () => undefined }));

interface FakeSocket {
  url: string;
  onmessage?: (e: { data: unknown }) => void;
  onclose?: () => void;
}

/** Sockets the page opened, in order. */
function fakeSockets(): FakeSocket[] {
  const opened: FakeSocket[] = [];
  vi.stubGlobal('location', { href: 'http://localhost/#/match/m1' });
  vi.stubGlobal('WebSocket', class {
    static OPEN = 1;
    url: string;
    constructor(url: URL) {
      this.url = String(url);
      opened.push(this as unknown as FakeSocket);
    }
    close(): void {}
  });
  return opened;
}

/** A game as the server sends it, at `version`. */
function game(version: number, seat = 0) {
  return { seat, version, board: Array(8).fill('........'), score: 0, round: 0, status: 'PLAYING' };
}

/** A `state` frame of a match whose games are at these versions. */
function state(...versions: number[]) {
  return { type: 'state', match: { status: 'PLAYING', games: versions.map((v, seat) => game(v, seat)) } };
}

/** A match socket on fake timers, its sockets and the waits it set before each reconnection. */
async function reconnecting() {
  tokenAtOnce = true;
  vi.useFakeTimers();
  const opened = fakeSockets();
  const { MatchLive } = await import('./live');
  const delays: number[] = [];
  const timeout = globalThis.setTimeout;
  vi.spyOn(globalThis, 'setTimeout').mockImplementation(((fn: () => void, ms?: number) => {
    delays.push(ms ?? 0);
    return timeout(fn, ms);
  }) as typeof setTimeout);
  const live = new MatchLive('m1', { state: () => undefined, update: () => undefined });
  return { opened, delays, live };
}

describe('the match socket', () => {
  afterEach(() => {
    vi.restoreAllMocks(); // the spied setTimeout first: it was the fake timers' one
    vi.useRealTimers();
    vi.unstubAllGlobals();
    tokenAtOnce = false;
  });

  it('a page left while its token is being fetched opens no socket afterwards', async () => {
    const opened = fakeSockets();
    const { MatchLive } = await import('./live');
    const live = new MatchLive('m1', { state: () => undefined, update: () => undefined });
    live.close();
    giveToken('a-token');
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(opened).toEqual([]);
  });

  it('waits between reconnections double up to 8 s, each drawn between half of it and all of it', async () => {
    const { backoff } = await import('./live');
    [500, 1000, 2000, 4000, 8000, 8000, 8000].forEach((ceiling, retries) => {
      expect(backoff(retries, 0)).toBe(ceiling / 2);
      expect(backoff(retries, 0.999999)).toBe(ceiling);
    });
  });

  it('a server that accepts and drops at once is retried with growing waits, not twice a second', async () => {
    const { opened, delays, live } = await reconnecting();
    for (let i = 0; i < 5; i++) {
      await vi.advanceTimersByTimeAsync(i === 0 ? 0 : delays[i - 1]);
      const socket = opened[i];
      expect(socket, `connection ${i + 1}`).toBeDefined();
      socket.onmessage?.({ data: JSON.stringify(state()) });
      socket.onclose?.();
    }
    live.close();
    expect(delays).toHaveLength(5);
    delays.forEach((ms, i) => expect(ms, `wait ${i + 1}: ${delays}`).toBeGreaterThanOrEqual(250 * 2 ** i));
  });

  it('an update older than what a seat shows is ignored: the state, a later update or a REST answer (seen) may be ahead', async () => {
    tokenAtOnce = true;
    const opened = fakeSockets();
    const { MatchLive } = await import('./live');
    const updates: unknown[] = [];
    const live = new MatchLive('m1', { state: () => undefined, update: (g) => updates.push([g.seat, g.version]) });
    await new Promise((resolve) => setTimeout(resolve, 0));
    const send = (frame: unknown) => opened[0].onmessage?.({ data: JSON.stringify(frame) });
    send(state(5, 2));
    send({ type: 'update', game: game(4, 0) }); // sent before the state was read
    send({ type: 'update', game: game(5, 0) });
    send({ type: 'update', game: game(3, 1) }); // the other seat has its own version
    send({ type: 'update', game: game(6, 0) });
    live.seen(0, 9); // the player's own move, answered by REST
    send({ type: 'update', game: game(8, 0) });
    send({ type: 'update', game: game(10, 0) });
    expect(updates).toEqual([[1, 3], [0, 6], [0, 10]]);
    live.close();
  });

  it('an update the page cannot show moves no version on: the next one it can is shown', async () => {
    tokenAtOnce = true;
    const opened = fakeSockets();
    const { MatchLive } = await import('./live');
    const shown: number[] = [];
    const live = new MatchLive('m1', {
      state: () => undefined,
      update: (g) => {
        if (g.piece === 'ZZ') throw new TypeError('no such piece'); // a shape this page does not know
        shown.push(g.version);
      },
    });
    await new Promise((resolve) => setTimeout(resolve, 0));
    const send = (frame: unknown) => opened[0].onmessage?.({ data: JSON.stringify(frame) });
    send(state(1, 1));
    expect(() => send({ type: 'update', game: { ...game(999, 1), piece: 'ZZ' } })).toThrow(TypeError);
    send({ type: 'update', game: game(2, 1) });
    expect(shown).toEqual([2]);
    live.close();
  });

  it('a connection that held 10 s starts the back-off again', async () => {
    const { opened, delays, live } = await reconnecting();
    const frame = JSON.stringify(state());
    // three drops at once: the waits grow
    for (let i = 0; i < 3; i++) {
      await vi.advanceTimersByTimeAsync(i === 0 ? 0 : delays[i - 1]);
      opened[i].onmessage?.({ data: frame });
      opened[i].onclose?.();
    }
    expect(delays[2]).toBeGreaterThanOrEqual(1000);
    // the fourth holds 10 s before it drops: the next wait is the first one's again
    await vi.advanceTimersByTimeAsync(delays[2]);
    opened[3].onmessage?.({ data: frame });
    await vi.advanceTimersByTimeAsync(10_000);
    opened[3].onclose?.();
    live.close();
    expect(delays).toHaveLength(4);
    expect(delays[3], `waits ${delays}`).toBeLessThanOrEqual(500);
  });

  it('a frame it cannot read is ignored, never an exception', async () => {
    tokenAtOnce = true;
    const opened = fakeSockets();
    const { MatchLive } = await import('./live');
    const states: unknown[] = [];
    const live = new MatchLive('m1', { state: (m) => states.push(m), update: () => undefined });
    await new Promise((resolve) => setTimeout(resolve, 0));
    for (const data of ['x', 'null', '42', '{"type":"state"}', '{"type":"update","game":null}', '{"type":"nope"}']) {
      expect(() => opened[0].onmessage?.({ data })).not.toThrow();
    }
    expect(states).toEqual([]);
    opened[0].onmessage?.({ data: JSON.stringify(state()) });
    expect(states).toHaveLength(1);
    live.close();
  });

  it('a state or update whose games the page cannot draw is not read: the match shown stays whole', async () => {
    tokenAtOnce = true;
    const opened = fakeSockets();
    const { MatchLive } = await import('./live');
    const shown: unknown[] = [];
    const live = new MatchLive('m1', { state: (m) => shown.push(m.games.map((g) => g.version)), update: (g) => shown.push(g.version) });
    await new Promise((resolve) => setTimeout(resolve, 0));
    const send = (frame: unknown) => opened[0].onmessage?.({ data: JSON.stringify(frame) });
    send(state(1, 1));
    const { board: _, ...boardless } = game(2, 1);
    for (const bad of [
      { type: 'state', match: { status: 'PLAYING', games: [game(2, 0), boardless] } },
      { type: 'state', match: { status: 'PLAYING', games: [game(2, 0), { ...game(2, 1), board: [1, 2] }] } },
      { type: 'state', match: { status: 'PLAYING', games: [game(2, 0), null] } },
      { type: 'state', match: { games: [game(2, 0), game(2, 1)] } },
      { type: 'update', game: boardless },
      { type: 'update', game: { ...game(2, 1), score: '9' } },
    ]) {
      expect(() => send(bad)).not.toThrow();
    }
    send({ type: 'update', game: game(2, 1) });
    expect(shown).toEqual([[1, 1], 2]);
    live.close();
  });

  it.each([400, 401, 403, 404])('a socket refused at connection with %i is not tried again: nothing would change', async (status) => {
    const { opened, delays, live } = await reconnecting();
    await vi.advanceTimersByTimeAsync(0);
    opened[0].onmessage?.({ data: JSON.stringify({ type: 'error', status, message: 'refused' }) });
    opened[0].onclose?.();
    await vi.advanceTimersByTimeAsync(60_000);
    expect(opened).toHaveLength(1);
    expect(delays).toEqual([]);
    live.close();
  });

  it('a socket refused at connection with 429 (too many sockets) is tried again, backing off', async () => {
    const { opened, delays, live } = await reconnecting();
    for (let i = 0; i < 3; i++) {
      await vi.advanceTimersByTimeAsync(i === 0 ? 0 : delays[i - 1]);
      opened[i].onmessage?.({ data: JSON.stringify({ type: 'error', status: 429, message: 'Too many sockets' }) });
      opened[i].onclose?.();
    }
    expect(opened).toHaveLength(3);
    expect(delays[2]).toBeGreaterThanOrEqual(1000);
    live.close();
  });
});
