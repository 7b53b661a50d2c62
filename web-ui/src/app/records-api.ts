/*
 * leaderboard-service's answers for the leaderboards, my games and the admin audits, and replays,
 * typed. Answers that hold a replay are read with parseReplayJson: a replay's 64-bit seed would be
 * rounded by JSON.parse.
 */
import { call, type Level, type Options, type Period } from './api';
import { config } from './config';
import { parseReplayJson, type ReplayData } from '../game/replay';
import { segment } from './paths';

export type Outcome = 'RECORD' | 'VALID_NOT_ELIGIBLE' | 'REJECTED';
export const OUTCOMES: Outcome[] = ['REJECTED', 'VALID_NOT_ELIGIBLE', 'RECORD'];

export interface Entry {
  rank: number;
  gameId: string;
  playerId: string;
  player: string;
  score: number;
  rounds: number;
  finishedAt: string;
}

export interface BoardPage {
  level: Level;
  period: Period;
  page: number;
  size: number;
  more: boolean;
  entries: Entry[];
}

/**
 * A daily board: each player's first started daily game of that UTC day and level (if it counts), best first
 * (leaderboard-service `GET /api/leaderboards/{level}/daily?day=YYYY-MM-DD`; entries as on the other boards).
 */
export interface DailyBoard {
  level: Level;
  day: string;
  page: number;
  size: number;
  more: boolean;
  entries: Entry[];
}

export interface Standing {
  level: Level;
  period: Period;
  playerId: string;
  player: string;
  best: Entry | null;
  records: number;
}

export interface MyGame {
  gameId: string;
  level: Level;
  mode: string;
  outcome: Outcome;
  reason: string | null;
  score: number;
  rounds: number;
  finishedAt: string;
  struck: boolean;
}

export interface AuditSummary {
  gameId: string;
  outcome: Outcome;
  reason: string | null;
  level: Level;
  mode: string;
  player: { subject: string; name: string } | null;
  score: number;
  claimedScore: number | null;
  rounds: number;
  assisted: boolean;
  gameOver: boolean;
  finishedAt: string;
  processedAt: string;
  struck: boolean;
  /** Flagged by the cheat detector (its rounds are the full-strength AI's). */
  suspicious: boolean;
  /** Rounds played as the AI / rounds compared; null until measured (records of 20 rounds and more). */
  aiAgreement: number | null;
  comparedRounds: number | null;
  suspicionCheckedAt: string | null;
}

export interface AuditDetail {
  summary: AuditSummary;
  seed: string | null;
  validEvents: number;
  /** The replay as received: an object, or the text when it was not JSON. */
  replay: ReplayData | string | null;
  /** The start board the seed deals, for the replay viewer. */
  start: string[] | null;
  trace: string[];
  strike: { at: string; by: string; reason: string } | null;
  actions: { action: string; actor: string; at: string; detail: string | null }[];
  /** A daily game whose day is not over: its seed, replay, start and trace are withheld until then. */
  withheldUntil?: string | null;
}

const lb = <T>(path: string, o?: Options) => call<T>(config().leaderboardUrl, path, { ...o, parse: parseReplayJson });
const q = (params: Record<string, string | number | boolean | undefined>) =>
  new URLSearchParams(Object.entries(params).filter(([, v]) => v !== undefined && v !== '').map(([k, v]) => [k, String(v)])).toString();

export const records = {
  top: (level: Level, period: Period, page = 0, size = 20) => lb<BoardPage>(`/api/leaderboards/${level}?${q({ period, page, size })}`),
  daily: (level: Level, day: string, page = 0, size = 20) =>
    lb<DailyBoard>(`/api/leaderboards/${level}/daily?${q({ day, page, size })}`),
  mine: (level: Level, period: Period) => lb<Standing>(`/api/leaderboards/${level}/me?${q({ period })}`),
  myGames: (page = 0, size = 20) => lb<{ page: number; size: number; more: boolean; games: MyGame[] }>(`/api/leaderboards/me/games?${q({ page, size })}`),
  audits: (filter: { outcome?: Outcome | ''; suspicious?: boolean; level?: Level | ''; page?: number; size?: number }) =>
    lb<{ page: number; size: number; more: boolean; audits: AuditSummary[] }>(`/api/leaderboards/admin/audits?${q(filter)}`),
  audit: (gameId: string) => lb<AuditDetail>(`/api/leaderboards/admin/audits/${segment(gameId)}`),
  revalidate: (gameId: string) => lb<AuditDetail>(`/api/leaderboards/admin/audits/${segment(gameId)}/revalidate`, { method: 'POST' }),
  strike: (gameId: string, reason: string) =>
    lb<AuditDetail>(`/api/leaderboards/admin/audits/${segment(gameId)}/strike`, { method: 'POST', body: { reason } }),
  /** A finished game's replay from game-service (the caller's own game). */
  replay: (gameId: string) => call<ReplayData>('', `/api/games/${segment(gameId)}/replay`, { owner: gameId, parse: parseReplayJson }),
};

/** An audit's replay with the start board the service sent beside it. */
export function auditReplay(detail: AuditDetail): ReplayData | string | null {
  return detail.replay && typeof detail.replay === 'object' ? { ...detail.replay, start: detail.start } : detail.replay;
}
