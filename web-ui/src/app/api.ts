/** The services' REST APIs, with problem bodies turned into errors a person can read. */
import { accessToken, SessionEnded } from './auth';
import { config } from './config';
import { t } from './i18n';
import { segment } from './paths';
import { recentStore } from './recent';
import type { Points } from '../game/rules';

export const LEVELS = ['EASY', 'MEDIUM', 'HARD', 'EXPERT', 'DIABOLICAL'] as const;
export type Level = (typeof LEVELS)[number];

export interface TrayPiece {
  slot: number;
  id: string;
  rows: string[];
  placed: boolean;
}

export interface GameState {
  id: string;
  mode: string;
  level: Level;
  seed?: number;
  status: 'PLAYING' | 'OVER' | 'RESIGNED' | 'WON';
  board: string[];
  score: number;
  streak: number;
  miss: number;
  round: number;
  pieces: TrayPiece[];
  assisted: boolean;
  gameOver: boolean;
  nextMoveNumber: number;
  /** Solo: the move an undo takes back, absent when nothing can be undone. */
  undoMoveNumber?: number | null;
  version?: number;
  gameToken?: string;
  /** Where the seed came from, when game-service says (SERVER drawn secretly, DAILY, CHOSEN). */
  seedSource?: 'SERVER' | 'DAILY' | 'CHOSEN';
  /** A daily game that is practice: its player had started another daily game of the level that day before it. */
  practice?: boolean;
  /** The UTC day of a daily game. */
  day?: string | null;
}

export interface MoveOutcome extends Points {
  placed: [number, number][];
  cleared: [number, number][];
  roundCompleted: boolean;
  gameOver: boolean;
}

export interface MoveAnswer {
  repeated: boolean;
  move: MoveOutcome;
  game: GameState;
}

export interface Match {
  id: string;
  mode: 'VERSUS_AI' | 'TWO_PLAYERS' | 'ONLINE_RACE';
  level: Level;
  strength?: number;
  status: 'PLAYING' | 'FINISHED';
  targetScore?: number | null;
  winnerSeat?: number | null;
  result?: string | null;
  seed?: number;
  yourSeat?: number;
  games: (GameState & { seat?: number; player?: string | null })[];
  gameToken?: string;
}

export interface Ticket {
  ticket: string;
  waiting: boolean;
  matchId?: string | null;
}

export class ApiError extends Error {
  constructor(readonly status: number, message: string, readonly retryAfter?: number) {
    super(message);
  }
}

/**
 * Guest games are reached with the token their creation answered; kept per game and match id, the most recent
 * {@link MAX_GUEST_TOKENS} ids only (each was kept for good before, and the whole list is read at every call). Also
 * kept in memory, so that a storage that refuses (full, or blocked) loses them at the next visit, not at once.
 */
export const MAX_GUEST_TOKENS = 100;
const stored = recentStore<string>('bloc.gameTokens', MAX_GUEST_TOKENS);
const inMemory: Record<string, string> = {};

export function rememberGameToken(ids: string[], token: string | undefined): void {
  if (!token) return;
  for (const id of ids) inMemory[id] = token;
  stored.set(ids, token);
}

export function gameToken(id: string): string | undefined {
  return inMemory[id] ?? stored.get(id);
}

export interface Options {
  method?: string;
  body?: unknown;
  /** The game or match whose guest token to send. */
  owner?: string;
  /** The body as JSON text already, sent as it is (a 64-bit number that a JS number would round). */
  json?: string;
  /** Reads the answer's text (default JSON.parse; replays need their 64-bit seeds kept exact). */
  parse?: (text: string) => unknown;
}

/**
 * The caller's access token. A session that ended under the player is a 401 that says so for game-service's calls
 * (base ''), never a guest's call: a game made, a game of theirs refused; the other services' calls (boards, the
 * solver), which are the same for a guest bar the caller's own standing, go out without a token.
 */
async function tokenOrEnded(base: string): Promise<string | null> {
  try {
    return await accessToken();
  } catch (e) {
    if (!(e instanceof SessionEnded)) throw e;
    if (base === '') throw new ApiError(401, t('auth.sessionEnded'));
    return null;
  }
}

/** One call to a service: bearer and guest tokens, JSON body, problem bodies turned into ApiError. */
export async function call<T>(base: string, path: string, { method = 'GET', body, json: asText, owner, parse = JSON.parse }: Options = {}): Promise<T> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  const token = await tokenOrEnded(base);
  if (token) headers.Authorization = `Bearer ${token}`;
  const guest = owner ? gameToken(owner) : undefined;
  if (guest) headers['X-Game-Token'] = guest;
  const sent = asText ?? (body === undefined ? undefined : JSON.stringify(body));
  if (sent !== undefined) headers['Content-Type'] = 'application/json';
  let res: Response;
  try {
    res = await fetch(base + path, { method, headers, body: sent });
  } catch {
    throw new ApiError(0, 'offline');
  }
  if (res.status === 204) return undefined as T;
  const text = await res.text();
  let json: { detail?: string; title?: string; error?: string } | undefined;
  try {
    json = text ? (parse(text) as typeof json) : undefined;
  } catch {
    if (res.ok) throw new ApiError(res.status, 'the answer is not valid JSON');
  }
  if (!res.ok) {
    const retry = Number(res.headers.get('Retry-After')) || undefined;
    throw new ApiError(res.status, json?.detail ?? json?.title ?? json?.error ?? `HTTP ${res.status}`, retry);
  }
  return json as T;
}

const game = <T>(path: string, o?: Options) => call<T>('', path, o);

export const games = {
  /**
   * A new solo game; with a seed, that seed's game (never a record). The seed is its decimal text, sent exactly: a
   * 64-bit seed (as the replays show them) is past what a JS number holds (2^53), and would be another game rounded.
   *
   * @throws ApiError 400 when the seed is not a whole number (game-service says when it is past 64 bits)
   */
  async create(level: Level, seed?: string): Promise<GameState> {
    // a whole number of at most 19 digits (a long's), without the zeros in front and '+' that JSON refuses
    const whole = seed === undefined ? undefined : /^([+-]?)0*(\d{1,19})$/.exec(seed);
    if (whole === null) throw new ApiError(400, t('game.badSeed'));
    const json = whole && `{"level":${JSON.stringify(level)},"seed":${whole[1] === '-' ? '-' : ''}${whole[2]}}`;
    const g = await game<GameState>('/api/games', { method: 'POST', body: { level }, json });
    rememberGameToken([g.id], g.gameToken);
    return g;
  },
  /**
   * Today's daily game of the level: the same pieces for everyone on this UTC day, the seed never shown. `practice`:
   * asked for as practice, which game-service makes even while the player's counting game of the level is in play
   * (that one then stops counting); without it such a start is 409.
   */
  async createDaily(level: Level, practice = false): Promise<GameState> {
    const body = practice ? { level, daily: true, practice: true } : { level, daily: true };
    const g = await game<GameState>('/api/games', { method: 'POST', body });
    rememberGameToken([g.id], g.gameToken);
    return g;
  },
  get: (id: string) => game<GameState>(`/api/games/${segment(id)}`, { owner: id }),
  move: (id: string, moveNumber: number, slot: number, row: number, col: number) =>
    game<MoveAnswer>(`/api/games/${segment(id)}/moves`, { method: 'POST', owner: id, body: { moveNumber, slot, row, col } }),
  undo: (id: string, moveNumber: number) => game<GameState>(`/api/games/${segment(id)}/undo`, { method: 'POST', owner: id, body: { moveNumber } }),
  hint: (id: string) =>
    game<{ placements: { slot: number; row: number; col: number }[]; game: GameState }>(`/api/games/${segment(id)}/hint`, { method: 'POST', owner: id }),
  resign: (id: string) => game<GameState>(`/api/games/${segment(id)}/resign`, { method: 'POST', owner: id }),
};

export const matches = {
  async create(body: { mode: Match['mode']; level: Level; strength?: number }): Promise<Match | Ticket> {
    const m = await game<Match | Ticket>('/api/matches', { method: 'POST', body });
    if ('games' in m) rememberGameToken([m.id, ...m.games.map((g) => g.id)], m.gameToken);
    return m;
  },
  get: (id: string) => game<Match>(`/api/matches/${segment(id)}`, { owner: id }),
  ticket: (ticket: string) => game<Ticket>(`/api/matches/queue/${segment(ticket)}`),
  leave: (ticket: string) => game<void>(`/api/matches/queue/${segment(ticket)}`, { method: 'DELETE' }),
};

/**
 * game-service `GET /api/daily`: today's UTC day, its levels and, for a logged-in caller, whether they already
 * started (then another attempt is practice) and finished today's daily game of each level (for a guest, absent).
 * The one place that reads that answer: adjust here if its shape changes.
 */
export interface DailyToday {
  day: string;
  levels: { level: Level; started?: boolean; finished?: boolean }[];
}

export const daily = {
  today: () => game<DailyToday>('/api/daily'),
};

export type Period = 'all' | 'today' | 'week';

export const solver = {
  solve: (request: Record<string, unknown>) => call<Record<string, unknown>>(config().solverUrl, '/api/solver/solve', { method: 'POST', body: request }),
};
