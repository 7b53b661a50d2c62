/*
 * The socket of a match (/api/matches/{id}/live): typed frames, reconnection that resumes from the
 * server's `state`, and per-seat versions so a late `update` never overwrites a newer state.
 */
import { accessToken, SessionEnded } from './auth';
import { t } from './i18n';
import type { GameState, Match, MoveAnswer } from './api';
import { gameToken } from './api';

export interface GameUpdate {
  gameId?: string;
  seat: number;
  version: number;
  status: GameState['status'];
  score: number;
  streak: number;
  round: number;
  board: string[];
  type?: string;
  /** PLACE: the catalogue id of the piece placed. */
  piece?: string;
}

export type ServerFrame =
  | { type: 'state'; match: Match }
  | { type: 'moved'; result: MoveAnswer }
  | { type: 'update'; game: GameUpdate }
  | { type: 'error'; status: number; message: string }
  | { type: 'pong' };

export interface LiveHandlers {
  state(match: Match): void;
  update(game: GameUpdate): void;
  error?(status: number, message: string): void;
  connection?(open: boolean): void;
}

/** How long a connection must have held for its drop to start the back-off again. */
export const STABLE_MS = 10_000;

/**
 * The wait before reconnecting after `retries` drops in a row: doubling from 0.5 s up to 8 s, each drawn between half
 * of it and all of it (`random` in [0, 1)), so that the pages a server restart dropped do not all come back together.
 */
export function backoff(retries: number, random: number): number {
  const ceiling = Math.min(500 * 2 ** Math.min(retries, 4), 8000);
  return Math.round(ceiling / 2 + (random * ceiling) / 2);
}

/**
 * Whether a game from the server has what the page draws: its board (rows of text), score, round and status. A `state`
 * or `update` frame with a game short of that is not read: shown, it left the page half-replaced (a match whose game
 * the page could not draw, the other side's board frozen).
 */
function readableGame(game: unknown): boolean {
  if (typeof game !== 'object' || game === null) return false;
  const g = game as Record<string, unknown>;
  return Array.isArray(g.board) && g.board.every((row) => typeof row === 'string')
    && typeof g.score === 'number' && typeof g.round === 'number' && typeof g.status === 'string';
}

/** A frame from the server, or null when it is not one this client can read (ignored, never an exception). */
export function parsedFrame(data: unknown): ServerFrame | null {
  let frame: unknown;
  try {
    frame = JSON.parse(String(data));
  } catch {
    return null;
  }
  if (typeof frame !== 'object' || frame === null) return null;
  const f = frame as Record<string, unknown>;
  switch (f.type) {
    case 'state': {
      const match = f.match as { games?: unknown; status?: unknown } | null | undefined;
      return Array.isArray(match?.games) && match.games.every(readableGame) && typeof match.status === 'string'
        ? (f as ServerFrame) : null;
    }
    case 'update': {
      const game = f.game as { seat?: unknown; version?: unknown } | null | undefined;
      return typeof game?.seat === 'number' && typeof game.version === 'number' && readableGame(game) ? (f as ServerFrame) : null;
    }
    case 'moved':
    case 'error':
    case 'pong':
      return f as ServerFrame;
    default:
      return null;
  }
}

export class MatchLive {
  private socket: WebSocket | null = null;
  private closed = false;
  private retries = 0;
  private readonly versions = new Map<number, number>();
  private timer: ReturnType<typeof setTimeout> | undefined;
  /** A `state` frame arrived on this connection: the server accepted it. */
  private opened = false;
  /** When this connection's first `state` frame came. */
  private stateAt = 0;

  constructor(private readonly matchId: string, private readonly handlers: LiveHandlers) {
    void this.connect();
  }

  private async connect(): Promise<void> {
    if (this.closed) return;
    const url = new URL(`/api/matches/${this.matchId}/live`, location.href);
    url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
    const guest = gameToken(this.matchId);
    let token: string | null;
    try {
      token = await accessToken();
    } catch (e) {
      if (!(e instanceof SessionEnded)) throw e;
      // as a refusal at connection: a guest's socket would be refused too, so retrying cannot help
      this.closed = true;
      this.handlers.error?.(401, t('auth.sessionEnded'));
      return;
    }
    if (this.closed) return; // the page was left while the token was refreshed
    // Browsers cannot set headers on a socket: Quarkus reads them from subprotocols (never the address, which proxies
    // log: the game token is a guest's credential for the whole game).
    const headers = [
      ...(token ? [`quarkus-http-upgrade#Authorization#Bearer ${token}`] : []),
      ...(guest ? [`quarkus-http-upgrade#X-Game-Token#${guest}`] : []),
    ];
    const protocols = headers.length ? ['bearer-token-carrier', ...headers.map(encodeURIComponent)] : undefined;
    const socket = new WebSocket(url, protocols);
    this.socket = socket;
    this.opened = false;
    socket.onopen = () => this.handlers.connection?.(true);
    socket.onmessage = (e) => {
      const frame = parsedFrame(e.data);
      if (frame) this.receive(frame);
    };
    socket.onclose = () => {
      if (this.closed) return;
      this.handlers.connection?.(false);
      // A connection that held a while starts the back-off again; one dropped soon after its `state` (a server
      // that accepts and falls) keeps backing off, or every page would come back at once, twice a second.
      if (this.opened && Date.now() - this.stateAt >= STABLE_MS) this.retries = 0;
      // The `state` frame on reconnection brings everything up to date.
      this.timer = setTimeout(() => void this.connect(), backoff(this.retries++, Math.random()));
    };
  }

  private receive(frame: ServerFrame): void {
    switch (frame.type) {
      // The versions move on once the page has shown the frame: one it cannot show (its handler throws on a shape it
      // does not expect) held back every later update up to its version, and the opponent's board stayed frozen.
      case 'state':
        if (!this.opened) this.stateAt = Date.now();
        this.opened = true;
        this.handlers.state(frame.match);
        frame.match.games.forEach((g, seat) => this.versions.set(seat, Math.max(this.versions.get(seat) ?? -1, g.version ?? -1)));
        break;
      case 'update': {
        const seen = this.versions.get(frame.game.seat) ?? -1;
        if (frame.game.version <= seen) return; // older than what is shown
        this.handlers.update(frame.game);
        this.versions.set(frame.game.seat, frame.game.version);
        break;
      }
      case 'error':
        // Refused at connection (a token refused, not ours, no such match, a malformed address): retrying cannot help,
        // as it can for a 429 (too many sockets: once the player closes another tab, the next try is let in).
        if (!this.opened && frame.status >= 400 && frame.status < 500 && frame.status !== 429) this.closed = true;
        this.handlers.error?.(frame.status, frame.message);
        break;
      default:
        break;
    }
  }

  /** Notes a seat's state learnt another way (a REST answer), so older updates are ignored. */
  seen(seat: number, version: number | undefined): void {
    if (version !== undefined) this.versions.set(seat, Math.max(this.versions.get(seat) ?? -1, version));
  }

  sync(): void {
    if (this.socket?.readyState === WebSocket.OPEN) this.socket.send(JSON.stringify({ type: 'sync' }));
  }

  close(): void {
    this.closed = true;
    clearTimeout(this.timer);
    this.socket?.close();
  }
}
