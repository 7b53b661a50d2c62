import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { GameState, Match } from '../app/api';
import type { Route } from '../app/router';

/*
 * The end of a game, as docs/web-ui.md describes it ("Solo", "Daily challenge", "After a game": share, rematch),
 * checked on the real pages (soloPage, versusPage, shareButton) over just enough of a DOM for h(): the tests run in
 * node. The board (BoardView), the match socket and the router's navigation are stand-ins; game-service is a fetch
 * that answers from a table and keeps every request.
 */

vi.mock('../app/auth', () => ({
  accessToken: () => Promise.resolve(null),
  SessionEnded: class extends Error {},
  user: () => null,
  login: () => undefined,
}));
vi.mock('../app/config', () => ({
  config: () => ({ solverUrl: 'http://solver', leaderboardUrl: 'http://boards', keycloakUrl: 'http://kc', realm: 'r', clientId: 'c' }),
}));
vi.mock('../game/board-view', () => ({
  BoardView: class {
    readonly root = document.createElement('div');
    show(): void {}
    setEnabled(): void {}
    showHint(): void {}
    dispose(): void {}
  },
}));
vi.mock('../app/live', () => ({
  MatchLive: class {
    seen(): void {}
    close(): void {}
  },
}));
/** Where the page sent the player (router.go). */
const went: string[] = [];
vi.mock('../app/router', async (original) => ({ ...(await original<typeof import('../app/router')>()), go: (hash: string) => void went.push(hash) }));

// ---- just enough of the DOM -------------------------------------------------------------------------------------

class FakeNode {}
class FakeText extends FakeNode {
  constructor(readonly data: string) {
    super();
  }
}
class FakeElement extends FakeNode {
  children: FakeNode[] = [];
  readonly attributes = new Map<string, string>();
  readonly dataset: Record<string, string> = {};
  readonly style: Record<string, string> = {};
  readonly listeners = new Map<string, ((e: unknown) => unknown)[]>();
  className = '';
  disabled = false;
  hidden = false;
  id = '';
  readonly isConnected = true;
  constructor(readonly tagName: string) {
    super();
  }
  append(...nodes: unknown[]): void {
    for (const node of nodes) this.children.push(node instanceof FakeNode ? node : new FakeText(String(node)));
  }
  replaceChildren(...nodes: unknown[]): void {
    this.children = [];
    this.append(...nodes);
  }
  setAttribute(name: string, value: string): void {
    this.attributes.set(name, value);
  }
  getAttribute(name: string): string | null {
    return this.attributes.get(name) ?? null;
  }
  addEventListener(type: string, listener: (e: unknown) => unknown): void {
    this.listeners.set(type, [...(this.listeners.get(type) ?? []), listener]);
  }
  removeEventListener(): void {}
  get classList() {
    const names = () => this.className.split(/\s+/).filter(Boolean);
    return {
      contains: (c: string) => names().includes(c),
      add: (...cs: string[]) => void (this.className = [...new Set([...names(), ...cs])].join(' ')),
      remove: (...cs: string[]) => void (this.className = names().filter((n) => !cs.includes(n)).join(' ')),
      toggle: (c: string, on = !names().includes(c)) => void (this.className = [...names().filter((n) => n !== c), ...(on ? [c] : [])].join(' ')),
    };
  }
  get textContent(): string {
    return this.children.map((c) => (c instanceof FakeText ? c.data : (c as FakeElement).textContent)).join('');
  }
  set textContent(text: string) {
    this.children = text ? [new FakeText(text)] : [];
  }
  querySelector(): null {
    return null;
  }
  querySelectorAll(): FakeElement[] {
    return [];
  }
  contains(): boolean {
    return false;
  }
  focus(): void {}
  remove(): void {}
  /** This element and every element under it. */
  *all(): Generator<FakeElement> {
    yield this;
    for (const c of this.children) if (c instanceof FakeElement) yield* c.all();
  }
  byTestId(id: string): FakeElement | undefined {
    return [...this.all()].find((e) => e.attributes.get('data-testid') === id || e.dataset.testid === id);
  }
  /** The href of every link under this element. */
  links(): string[] {
    return [...this.all()].filter((e) => e.tagName === 'a').map((e) => e.attributes.get('href') ?? '');
  }
  /** A click: every click listener, awaited. */
  async click(): Promise<void> {
    await Promise.all((this.listeners.get('click') ?? []).map((l) => l({ detail: 1 })));
  }
}

// ---- the browser around it --------------------------------------------------------------------------------------

interface Sent {
  method: string;
  url: string;
  body?: unknown;
}
let sent: Sent[];
let storage: Map<string, string>;

/** game-service: each request answered by the first route whose "METHOD path" matches, else 404. */
function server(routes: Record<string, unknown>): void {
  vi.stubGlobal('fetch', (url: string, init: RequestInit = {}) => {
    const method = init.method ?? 'GET';
    sent.push({ method, url, body: init.body === undefined ? undefined : JSON.parse(String(init.body)) });
    const answer = routes[`${method} ${url}`];
    return Promise.resolve(answer === undefined
      ? new Response(JSON.stringify({ detail: 'not found' }), { status: 404 })
      : new Response(JSON.stringify(answer), { status: method === 'POST' ? 201 : 200 }));
  });
}

beforeEach(() => {
  sent = [];
  went.length = 0;
  storage = new Map();
  vi.stubGlobal('Node', FakeNode);
  vi.stubGlobal('document', { createElement: (tag: string) => new FakeElement(tag), documentElement: new FakeElement('html') });
  vi.stubGlobal('requestAnimationFrame', () => 0);
  vi.stubGlobal('location', { origin: 'https://bloc.example', hash: '' });
  vi.stubGlobal('localStorage', {
    getItem: (k: string) => storage.get(k) ?? null,
    setItem: (k: string, v: string) => void storage.set(k, v),
    removeItem: (k: string) => void storage.delete(k),
  });
  server({});
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.resetModules();
});

const route = (hash: string): Route => {
  const [path, query = ''] = hash.split('?');
  return { path: path.split('/').filter(Boolean), query: new URLSearchParams(query) };
};

function game(over: Partial<GameState> = {}): GameState {
  return {
    id: 'g1', mode: 'SOLO', level: 'HARD', status: 'OVER', board: Array(8).fill('........'), score: 120, streak: 0, miss: 0,
    round: 7, pieces: [], assisted: false, gameOver: true, nextMoveNumber: 21, undoMoveNumber: null, seedSource: 'SERVER', ...over,
  };
}

/** The solo page of game `g` as game-service answers it: the page's main element. */
async function soloOf(g: GameState): Promise<FakeElement> {
  server({ [`GET /api/games/${g.id}`]: g });
  const { soloPage } = await import('./solo');
  const main = new FakeElement('main');
  await soloPage(main as unknown as HTMLElement, route(`solo/${g.id}`));
  return main;
}

/** Lets the calls the page started without awaiting them go out. */
const settled = () => new Promise((resolve) => setTimeout(resolve, 10));

/** The game-over dialog of a page. */
const dialog = (main: FakeElement) => [...main.all()].find((e) => e.attributes.get('role') === 'dialog');

// ---- Share ------------------------------------------------------------------------------------------------------

describe('Share: the Web Share API, else the clipboard, else the text shown', () => {
  const TEXT = 'Bloc Éclat, HARD: 120 points. https://bloc.example/#/replay/g1';

  async function press(navigator: unknown): Promise<string> {
    vi.stubGlobal('navigator', navigator);
    const { shareButton } = await import('../game/after-game');
    const box = shareButton(() => TEXT) as unknown as FakeElement;
    await box.byTestId('share')!.click();
    return box.byTestId('share-status')!.textContent;
  }

  it('shares through navigator.share where there is one, without touching the clipboard', async () => {
    const share = vi.fn(() => Promise.resolve());
    const writeText = vi.fn(() => Promise.resolve());
    const status = await press({ share, clipboard: { writeText } });
    const { m } = await import('./together-i18n');
    expect(share).toHaveBeenCalledWith({ text: TEXT });
    expect(writeText).not.toHaveBeenCalled();
    expect(status).toBe(m('shared'));
  });

  it('without navigator.share, copies the text to the clipboard', async () => {
    const writeText = vi.fn(() => Promise.resolve());
    const status = await press({ clipboard: { writeText } });
    const { m } = await import('./together-i18n');
    expect(writeText).toHaveBeenCalledWith(TEXT);
    expect(status).toBe(m('copied'));
  });

  it('a clipboard that refuses: the text is shown to copy by hand', async () => {
    const writeText = vi.fn(() => Promise.reject(new DOMException('denied', 'NotAllowedError')));
    expect(await press({ clipboard: { writeText } })).toBe(TEXT);
    expect(writeText).toHaveBeenCalledOnce();
  });

  it('no clipboard at all (a plain-http page): the text is shown', async () => {
    expect(await press({})).toBe(TEXT);
  });

  it('a share sheet the player dismissed (AbortError) says nothing and copies nothing', async () => {
    const writeText = vi.fn(() => Promise.resolve());
    const status = await press({ share: () => Promise.reject(new DOMException('dismissed', 'AbortError')), clipboard: { writeText } });
    expect(status).toBe('');
    expect(writeText).not.toHaveBeenCalled();
  });

  it('a share that fails otherwise shows the text (not the clipboard)', async () => {
    const writeText = vi.fn(() => Promise.resolve());
    const status = await press({ share: () => Promise.reject(new DOMException('no', 'NotAllowedError')), clipboard: { writeText } });
    expect(status).toBe(TEXT);
    expect(writeText).not.toHaveBeenCalled();
  });

  it('a solo game\'s game-over shares its level, score, rounds and the replay\'s link', async () => {
    const writeText = vi.fn((_text: string) => Promise.resolve());
    vi.stubGlobal('navigator', { clipboard: { writeText } });
    const over = dialog(await soloOf(game({ id: 'g7', score: 345, round: 12 })))!;
    await over.byTestId('share')!.click();
    const text = writeText.mock.calls[0][0];
    expect(text).toContain('https://bloc.example/#/replay/g7');
    expect(text).toContain('345');
    expect(text).toContain('12');
    const { t } = await import('../app/i18n');
    expect(text).toContain(t('level.HARD'));
  });
});

// ---- Personal best ----------------------------------------------------------------------------------------------

describe('the personal best after a solo game: unassisted games, on this device, per level', () => {
  /** The game-over dialog says "new record". */
  const saysRecord = (main: FakeElement) => [...dialog(main)!.all()].some((e) => e.classList.contains('record'));
  /** The header's figures: score, best, round. */
  const headerFigures = (main: FakeElement) => {
    const scores = [...main.all()].find((e) => e.classList.contains('scores'))!;
    return [...scores.all()].filter((e) => e.classList.contains('value')).map((e) => e.textContent);
  };

  it('a first finished game is a new best, kept in localStorage for its level', async () => {
    const main = await soloOf(game({ score: 120 }));
    expect(saysRecord(main)).toBe(true);
    expect(storage.get('bloc.best.HARD')).toBe('120');
  });

  it('a score above the best kept is a new best and replaces it', async () => {
    storage.set('bloc.best.HARD', '100');
    const main = await soloOf(game({ score: 101 }));
    expect(saysRecord(main)).toBe(true);
    expect(storage.get('bloc.best.HARD')).toBe('101');
  });

  it('equalling or missing the best is no record and keeps the best', async () => {
    storage.set('bloc.best.HARD', '120');
    expect(saysRecord(await soloOf(game({ score: 120 })))).toBe(false);
    expect(saysRecord(await soloOf(game({ score: 80 })))).toBe(false);
    expect(storage.get('bloc.best.HARD')).toBe('120');
  });

  it('an assisted game (hint or undo) never sets a best, whatever its score', async () => {
    storage.set('bloc.best.HARD', '100');
    const main = await soloOf(game({ score: 5000, assisted: true }));
    expect(saysRecord(main)).toBe(false);
    expect(storage.get('bloc.best.HARD')).toBe('100');
    expect(headerFigures(main)).toEqual(['5000', '100', '8']);
  });

  it('a game on a chosen seed (a challenge link) never sets a best: its pieces could be known', async () => {
    storage.set('bloc.best.HARD', '100');
    const main = await soloOf(game({ score: 5000, seedSource: 'CHOSEN' }));
    expect(saysRecord(main)).toBe(false);
    expect(storage.get('bloc.best.HARD')).toBe('100');
    expect(headerFigures(main)).toEqual(['5000', '100', '8']);
  });

  it('a kept best that is no number counts as none (it was NaN: no game could beat it)', async () => {
    storage.set('bloc.best.HARD', 'twelve');
    const main = await soloOf(game({ score: 10 }));
    expect(saysRecord(main)).toBe(true);
    expect(storage.get('bloc.best.HARD')).toBe('10');
  });

  it('each level has its own best', async () => {
    storage.set('bloc.best.HARD', '1000');
    expect(saysRecord(await soloOf(game({ level: 'EASY', score: 50 })))).toBe(true);
    expect(storage.get('bloc.best.EASY')).toBe('50');
    expect(storage.get('bloc.best.HARD')).toBe('1000');
  });

  it('while playing, the header shows the best, or the score once an unassisted game passes it', async () => {
    storage.set('bloc.best.HARD', '200');
    expect(headerFigures(await soloOf(game({ status: 'PLAYING', gameOver: false, score: 150, round: 3 })))).toEqual(['150', '200', '4']);
    expect(headerFigures(await soloOf(game({ status: 'PLAYING', gameOver: false, score: 300, round: 3 })))).toEqual(['300', '300', '4']);
    expect(headerFigures(await soloOf(game({ status: 'PLAYING', gameOver: false, score: 300, round: 3, assisted: true })))).toEqual(['300', '200', '4']);
    expect(storage.get('bloc.best.HARD')).toBe('200'); // kept only at the game's end
  });
});

// ---- Play again / rematch end nothing ---------------------------------------------------------------------------

describe('"Play again" and a rematch end nothing; a versus rematch keeps the AI\'s strength', () => {
  const ending = () => sent.filter((s) => /\/resign$/.test(s.url));

  it('solo: "Play again" opens a new game of the level, and that page only makes a game: no resignation', async () => {
    const over = dialog(await soloOf(game({ id: 'g1', level: 'HARD' })))!;
    const again = over.links().find((href) => href.startsWith('#/solo/new'));
    expect(again).toBe('#/solo/new?level=HARD');

    // another game still remembered as in play on this device (the home page would offer it, and its Play resign it)
    storage.set('bloc.resume', 'g0');
    sent = [];
    server({ 'POST /api/games': game({ id: 'g2', status: 'PLAYING', gameOver: false, score: 0, round: 0 }) });
    const { soloPage } = await import('./solo');
    await soloPage(new FakeElement('main') as unknown as HTMLElement, route(again!.slice(2)));
    expect(sent.map((s) => `${s.method} ${s.url}`)).toEqual(['POST /api/games']);
    expect(sent[0].body).toEqual({ level: 'HARD' });
    expect(ending()).toEqual([]);
    expect(went).toEqual(['#/solo/g2']);
  });

  function match(strength: number, over: Partial<Match> = {}): Match {
    return {
      id: 'm1', mode: 'VERSUS_AI', level: 'EXPERT', strength, status: 'FINISHED', targetScore: null, winnerSeat: 1, yourSeat: 0,
      games: [game({ id: 'g1', mode: 'VERSUS_AI', level: 'EXPERT', score: 90 }), game({ id: 'g2', mode: 'VERSUS_AI', level: 'EXPERT', score: 150 })],
      ...over,
    };
  }

  it.each([1, 5])('versus AI of strength %i: the rematch is a new match of the same level and strength, nothing resigned', async (strength) => {
    server({ 'GET /api/matches/m1': match(strength), 'POST /api/matches': match(strength, { id: 'm2', status: 'PLAYING' }) });
    const { versusPage } = await import('./match');
    const main = new FakeElement('main');
    await versusPage(main as unknown as HTMLElement, route('versus/m1'));
    sent = [];
    await dialog(main)!.byTestId('rematch')!.click();
    expect(sent.map((s) => `${s.method} ${s.url}`)).toEqual(['POST /api/matches']);
    expect(sent[0].body).toEqual({ mode: 'VERSUS_AI', level: 'EXPERT', strength });
    expect(ending()).toEqual([]);
    expect(went).toEqual(['#/versus/m2']);
  });
});

// ---- Daily: no replay on its game-over screen -------------------------------------------------------------------

describe('a daily game\'s game-over screen offers practice and the daily board, never its replay', () => {
  const today = new Date().toISOString().slice(0, 10);

  it('a solo game\'s game-over links its replay (the control)', async () => {
    const over = dialog(await soloOf(game({ id: 'g1' })))!;
    expect(over.links()).toContain('#/replay/g1');
    await settled();
    expect(sent.map((s) => s.url)).toContain('/api/games/g1/replay'); // the analysis asks for it
  });

  it.each([false, true])('a daily game of today (practice: %s): no replay link, no share, no analysis', async (practice) => {
    const main = await soloOf(game({ id: 'd1', seedSource: 'DAILY', day: today, practice }));
    const over = dialog(main)!;
    expect(over.links().filter((href) => href.includes('replay'))).toEqual([]);
    expect(over.byTestId('share')).toBeUndefined();
    expect(over.byTestId('game-over-analysis')).toBeUndefined();
    expect(over.byTestId('daily-again')).toBeDefined();
    expect(over.byTestId('daily-board')!.attributes.get('href')).toBe(`#/daily?level=HARD&day=${today}`);
    // nor anything asked about its replay
    await settled();
    expect(sent.filter((s) => s.url.includes('replay'))).toEqual([]);
  });
});
