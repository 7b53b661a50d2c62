/*
 * Stepping through a replay (docs/rules.md "Replays") on the client, for the replay viewer:
 * every event from the start board, with the board, score, streak and the round's pieces after it.
 * The replay has no start board: it is derived from the seed as the engine does
 * (PieceStream.startBoard, SplitMix64), checked against the engine's golden files (replay.test.ts).
 * Seeds are 64-bit: JSON.parse would round them, so replays are read with `parseReplayJson`.
 */
import type { Level, MoveOutcome } from '../app/api';
import { piece } from './pieces';
import { boardRows, canPlaceAnywhere, emptyBoard, fits, parseBoard, place, score, SIZE, type Board } from './rules';

export interface ReplayEvent {
  type: string;
  round?: number;
  slot?: number;
  row?: number;
  col?: number;
}

/** A replay as the engine writes it; `seed` kept exact (a decimal string or bigint). */
export interface ReplayData {
  rulesVersion?: number;
  seed: string | number | bigint;
  level: Level;
  assisted?: boolean;
  claimedScore?: number;
  claimedRounds?: number;
  rounds: string[][];
  events: ReplayEvent[];
  /** A start board when a source provides one (the golden files do); derived from the seed otherwise. */
  start?: string[];
}

/** The state after `index` events (0 = the start board). */
export interface Step {
  index: number;
  event?: ReplayEvent;
  /** Placements so far (undone ones taken back). */
  moves: number;
  board: string[];
  score: number;
  streak: number;
  miss: number;
  /** The round being played (after a round completes: the next one). */
  round: number;
  /** The pieces of that round and whether each is placed. */
  pieces: { slot: number; id: string; placed: boolean }[];
  /** For a placement: what it did, in the shape game-service answers moves. */
  outcome?: MoveOutcome;
  pieceId?: string;
  assisted: boolean;
  gameOver: boolean;
}

export interface Stepped {
  steps: Step[];
  /** The first event that cannot be played, in words (a tampered replay); the steps stop before it. */
  error?: string;
}

// ---- the seed: SplitMix64 over unsigned 64-bit BigInts, as engine/SplitMix64.java ----

const MASK = (1n << 64n) - 1n;
const u64 = (x: bigint) => x & MASK;
const GOLDEN_GAMMA = 0x9e3779b97f4a7c15n;
const LEVEL_SALT = 0xd1b54a32d192ed03n;
const LEVEL_ORDER: Level[] = ['EASY', 'MEDIUM', 'HARD', 'EXPERT', 'DIABOLICAL'];
/** RULES.md "Levels": filled cells of the start board. */
export const START_CELLS: Record<Level, number> = { EASY: 0, MEDIUM: 4, HARD: 8, EXPERT: 10, DIABOLICAL: 12 };

function mix64(z: bigint): bigint {
  z = u64((z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n);
  z = u64((z ^ (z >> 27n)) * 0x94d049bb133111ebn);
  return z ^ (z >> 31n);
}

class SplitMix64 {
  constructor(private state: bigint) {}

  nextLong(): bigint {
    this.state = u64(this.state + GOLDEN_GAMMA);
    return mix64(this.state);
  }

  nextInt(bound: number): number {
    return Number(((this.nextLong() >> 32n) * BigInt(bound)) >> 32n);
  }
}

function streamOf(seed: bigint, level: Level, k: bigint): SplitMix64 {
  const ordinal = BigInt(LEVEL_ORDER.indexOf(level) + 1);
  const base = mix64(u64(seed) ^ u64(ordinal * LEVEL_SALT));
  return new SplitMix64(mix64(u64(base + k)));
}

function hasFullLine(board: Board): boolean {
  for (let i = 0; i < SIZE; i++) {
    let row = true;
    let col = true;
    for (let j = 0; j < SIZE; j++) {
      row &&= board[i * SIZE + j];
      col &&= board[j * SIZE + i];
    }
    if (row || col) return true;
  }
  return false;
}

/** True when some order places every piece, clearing as it goes (PieceStream.canPlaceAll). */
function canPlaceAll(board: Board, ids: string[]): boolean {
  if (!ids.length) return true;
  return ids.some((id, i) => {
    const p = piece(id);
    const rest = ids.filter((_, j) => j !== i);
    for (let r = 0; r <= SIZE - p.height; r++) {
      for (let c = 0; c <= SIZE - p.width; c++) {
        if (fits(board, p, r, c) && canPlaceAll(place(board, p, r, c).board, rest)) return true;
      }
    }
    return false;
  });
}

/**
 * The start board of (seed, level), given round 0's pieces: `START_CELLS` cells drawn from the
 * seed's stream −1, redrawn while they complete a line or round 0 cannot be placed in full.
 */
export function startBoard(seed: string | number | bigint, level: Level, firstRound: string[]): boolean[] {
  if (!LEVEL_ORDER.includes(level)) throw new Error(`unknown level ${level}`);
  const rng = streamOf(BigInt(seed), level, -1n);
  for (let attempt = 0; attempt < 10_000; attempt++) {
    const board = emptyBoard();
    let filled = 0;
    while (filled < START_CELLS[level]) {
      const i = rng.nextInt(64);
      if (!board[i]) {
        board[i] = true;
        filled++;
      }
    }
    if (!hasFullLine(board) && canPlaceAll(board, firstRound)) return board;
  }
  throw new Error('no start board found for this seed');
}

/** Parses a JSON answer holding replays, keeping every `"seed"` number exact as a string. */
export function parseReplayJson<T = unknown>(text: string): T {
  return JSON.parse(text.replace(/("seed"\s*:\s*)(-?\d+)/g, '$1"$2"')) as T;
}

// ---- stepping ----

const kind = (e: ReplayEvent) => String(e.type ?? '').toLowerCase();

/** Plays the replay's events one by one from its start board; stops at the first impossible one. */
export function stepReplay(replay: ReplayData, start?: Board): Stepped {
  if (!replay || !Array.isArray(replay.rounds) || !Array.isArray(replay.events)) {
    return { steps: [], error: 'the replay has no rounds or events' };
  }
  let board: boolean[] = start ? [...start] : replay.start ? parseBoard(replay.start) : startBoard(replay.seed, replay.level, replay.rounds[0] ?? []);
  let total = 0;
  let streak = 0;
  let miss = 0;
  let round = 0;
  let moves = 0;
  let placed = [false, false, false];
  let assisted = false;
  let gameOver = false;
  let undo: { board: boolean[]; total: number; streak: number; miss: number; slot: number }[] = [];

  const roundPieces = () => (replay.rounds[round] ?? []).map((id, slot) => ({ slot, id, placed: placed[slot] ?? false }));
  const snapshot = (index: number, event?: ReplayEvent, outcome?: MoveOutcome, pieceId?: string): Step => ({
    index, event, moves, board: boardRows(board), score: total, streak, miss, round, pieces: roundPieces(), outcome, pieceId, assisted, gameOver,
  });
  const steps: Step[] = [snapshot(0)];
  const over = () => {
    const left = roundPieces().filter((p) => !p.placed);
    return left.length > 0 && !left.some((p) => canPlaceAnywhere(board, piece(p.id)));
  };
  gameOver = replay.rounds.length > 0 && over();
  steps[0].gameOver = gameOver;

  for (let i = 0; i < replay.events.length; i++) {
    const e = replay.events[i];
    const n = i + 1;
    const fail = (why: string): Stepped => ({ steps, error: why });
    if (gameOver) return fail(`event ${n}: after game over`);
    if (e.round !== undefined && e.round !== round) return fail(`event ${n}: says round ${e.round} but round ${round} is being played`);
    const type = kind(e);
    if (type === 'hint') {
      assisted = true;
      steps.push(snapshot(n, e));
      continue;
    }
    if (type === 'undo') {
      const last = undo.pop();
      if (!last) return fail(`event ${n}: nothing to undo in round ${round}`);
      ({ board, total, streak, miss } = last);
      placed[last.slot] = false;
      moves--;
      assisted = true;
      steps.push(snapshot(n, e));
      continue;
    }
    if (type !== 'place') return fail(`event ${n}: unknown event "${e.type}"`);
    const slot = e.slot ?? -1;
    const id = replay.rounds[round]?.[slot];
    if (!id) return fail(`move ${moves + 1}: no piece in slot ${slot} of round ${round}`);
    if (placed[slot]) return fail(`move ${moves + 1}: slot ${slot} of round ${round} is already placed`);
    let p;
    try {
      p = piece(id);
    } catch {
      return fail(`move ${moves + 1}: unknown piece ${id}`);
    }
    const row = e.row ?? -1;
    const col = e.col ?? -1;
    if (!fits(board, p, row, col)) return fail(`move ${moves + 1}: ${id} at (${row},${col}) does not fit`);
    undo.push({ board, total, streak, miss, slot });
    const result = place(board, p, row, col);
    const lines = result.fullRows.length + result.fullCols.length;
    const empty = result.board.every((f) => !f);
    const s = score({ streak, miss }, p.cells.length, lines, empty);
    board = result.board;
    total += s.points;
    ({ streak, miss } = s);
    placed[slot] = true;
    moves++;
    const roundCompleted = placed.every(Boolean) && replay.rounds[round].length === 3;
    if (roundCompleted) {
      round++;
      placed = [false, false, false];
      undo = [];
    }
    gameOver = round < replay.rounds.length && over();
    const outcome: MoveOutcome = {
      placed: result.placed, cleared: result.cleared, lines, cellPoints: s.cellPoints, multiplier: s.multiplier,
      linePoints: s.linePoints, cleanBonus: s.cleanBonus, points: s.points, roundCompleted, gameOver,
    };
    steps.push(snapshot(n, e, outcome, id));
  }
  return { steps };
}

/** The final figures of a stepped replay against its claims. */
export function summary(replay: ReplayData, stepped: Stepped): { score: number; rounds: number; matchesClaim: boolean } {
  const last = stepped.steps[stepped.steps.length - 1];
  const scoreNow = last?.score ?? 0;
  const rounds = last?.round ?? 0;
  return { score: scoreNow, rounds, matchesClaim: !stepped.error && scoreNow === replay.claimedScore && rounds === replay.claimedRounds };
}
