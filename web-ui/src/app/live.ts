/*
 * The socket of a match (/api/matches/{id}/live): typed frames, reconnection that resumes from the
 * server's `state`, and per-seat versions so a late `update` never overwrites a newer state.
 */
import { accessToken } from './auth';
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

export class MatchLive {
  private socket: WebSocket | null = null;
  private closed = false;
  private retries = 0;
  private readonly versions = new Map<number, number>();
  private timer: ReturnType<typeof setTimeout> | undefined;
  /** A `state` frame arrived on this connection: the server accepted it. */
  private opened = false;

  constructor(private readonly matchId: string, private readonly handlers: LiveHandlers) {
    void this.connect();
  }

  private async connect(): Promise<void> {
    if (this.closed) return;
    const url = new URL(`/api/matches/${this.matchId}/live`, location.href);
    url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
    const guest = gameToken(this.matchId);
    const token = await accessToken();
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
    socket.onmessage = (e) => this.receive(JSON.parse(e.data) as ServerFrame);
    socket.onclose = () => {
      if (this.closed) return;
      this.handlers.connection?.(false);
      // Back off gently; the `state` frame on reconnection brings everything up to date.
      const delay = Math.min(500 * 2 ** this.retries++, 8000);
      this.timer = setTimeout(() => void this.connect(), delay);
    };
  }

  private receive(frame: ServerFrame): void {
    switch (frame.type) {
      case 'state':
        this.opened = true;
        this.retries = 0;
        frame.match.games.forEach((g, seat) => this.versions.set(seat, Math.max(this.versions.get(seat) ?? -1, g.version ?? -1)));
        this.handlers.state(frame.match);
        break;
      case 'update': {
        const seen = this.versions.get(frame.game.seat) ?? -1;
        if (frame.game.version <= seen) return; // older than what is shown
        this.versions.set(frame.game.seat, frame.game.version);
        this.handlers.update(frame.game);
        break;
      }
      case 'error':
        // Refused at connection (not ours, no such match): retrying cannot help.
        if ((frame.status === 403 || frame.status === 404) && !this.opened) this.closed = true;
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
