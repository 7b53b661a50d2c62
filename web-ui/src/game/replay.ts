/*
 * Stepping through a replay (docs/rules.md "Replays") on the client, for the replay viewer:
 * every event from the start board, with the board, score, streak and the round's pieces after it.
 * The start board comes with the replay (`start`: game-service's replay and leaderboard-service's
 * audit both send the board the seed deals), so the browser never re-derives the piece stream.
 * Seeds are 64-bit: JSON.parse would round them, so replays are read with `parseReplayJson`.
 */
import type { Level, MoveOutcome } from '../app/api';
import { piece } from './pieces';
import { boardRows, canPlaceAnywhere, fits, parseBoard, place, score, type Board } from './rules';

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
  /** The start board, as the services send it beside the replay (the seed decides it). */
  start?: string[] | null;
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
  if (!start && !replay.start) return { steps: [], error: 'the replay comes without its start board' };
  let board: boolean[] = start ? [...start] : parseBoard(replay.start!);
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
