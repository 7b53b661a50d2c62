/*
 * The solver's answer replayed locally, step by step, with the client rules (src/game/rules.ts):
 * each placement shows the piece's cells in its colour and the lines it fills, then the board
 * once they are cleared. Pure functions, checked by solver-steps.test.ts.
 */
import { colourOf, shapeOf, type PieceShape } from '../game/pieces';
import { boardRows, place, score, SIZE, type Streak } from '../game/rules';
import type { PieceSpec } from './solver-url';

export interface SolverPlacement {
  piece: number;
  row: number;
  col: number;
}

/** One sequence of an answer (the answer itself or one of its alternatives). */
export interface SolverSequence {
  placements: SolverPlacement[];
  points: number;
  lines: number;
  streak: number;
  miss: number;
  board: string[];
  gameOver: boolean;
}

export interface SolverAnswer extends SolverSequence {
  alternatives?: SolverSequence[];
  alternativesTotal?: number;
}

export const STONE = 15;
/** Drawn pieces (not in the catalogue) get one colour of their own. */
export const DRAWN_COLOUR = 11;

export function shapeOfSpec(spec: PieceSpec): PieceShape {
  return shapeOf(spec.id ?? 'DRAWN', spec.rows);
}

export function colourOfSpec(spec: PieceSpec): number {
  return spec.id ? colourOf(spec.id) : DRAWN_COLOUR;
}

export interface Frame {
  kind: 'start' | 'placed' | 'cleared';
  board: boolean[];
  /** The colour of each filled cell (STONE for the starting cells). */
  colours: (number | null)[];
  /** The cells of the piece just placed ('placed' frames). */
  placed: [number, number][];
  /** The cells its full lines will clear ('placed' frames). */
  clearing: [number, number][];
  /** The placement this frame shows (index into the sequence), absent for the start. */
  move?: number;
  slot?: number;
  row?: number;
  col?: number;
  /** This placement's points and lines, and the running totals. */
  points?: number;
  lines?: number;
  totalPoints: number;
  totalLines: number;
}

export interface Replay {
  frames: Frame[];
  /** False when the local rules do not end on the answer's board (should never happen). */
  agrees: boolean;
  error?: string;
}

/** Replays a sequence on the start board; `pieces` are the request's pieces in slot order of the request. */
export function replaySequence(start: readonly boolean[], pieces: readonly PieceSpec[], streakState: Streak, sequence: SolverSequence): Replay {
  let board = [...start];
  let colours: (number | null)[] = start.map((f) => (f ? STONE : null));
  let state: Streak = { ...streakState };
  let totalPoints = 0;
  let totalLines = 0;
  const frames: Frame[] = [{ kind: 'start', board, colours, placed: [], clearing: [], totalPoints, totalLines }];
  for (let i = 0; i < sequence.placements.length; i++) {
    const { piece: slot, row, col } = sequence.placements[i];
    const spec = pieces[slot];
    if (!spec) return { frames, agrees: false, error: `placement ${i + 1}: no piece ${slot}` };
    const shape = shapeOfSpec(spec);
    let result;
    try {
      result = place(board, shape, row, col);
    } catch (e) {
      return { frames, agrees: false, error: e instanceof Error ? e.message : String(e) };
    }
    const lines = result.fullRows.length + result.fullCols.length;
    const s = score(state, shape.cells.length, lines, result.board.every((f) => !f));
    state = { streak: s.streak, miss: s.miss };
    totalPoints += s.points;
    totalLines += lines;
    const before = [...board];
    const beforeColours = [...colours];
    for (const [r, c] of result.placed) {
      before[r * SIZE + c] = true;
      beforeColours[r * SIZE + c] = colourOfSpec(spec);
    }
    const common = { move: i, slot, row, col, points: s.points, lines, totalPoints, totalLines };
    frames.push({ kind: 'placed', board: before, colours: beforeColours, placed: result.placed, clearing: result.cleared, ...common });
    board = result.board;
    colours = beforeColours.map((colour, j) => (board[j] ? colour : null));
    if (result.cleared.length) frames.push({ kind: 'cleared', board, colours, placed: [], clearing: [], ...common });
  }
  const agrees = boardRows(board).join('/') === sequence.board.join('/') && totalPoints === sequence.points && totalLines === sequence.lines;
  return { frames, agrees };
}
