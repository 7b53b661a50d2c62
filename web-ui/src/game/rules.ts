/*
 * The rules of RULES.md, for the ghost, the clear preview and the replay viewer only:
 * game-service decides every move. Checked against the engine's golden files (rules.test.ts).
 * A board is 64 booleans, row-major: small enough that clarity beats bit tricks here.
 */
import type { PieceShape } from './pieces';

export const SIZE = 8;
export const CLEAN_BONUS = 400;
export const MAX_MULTIPLIER = 8;
export const MISSES_BEFORE_STREAK_LOST = 3;

export type Board = readonly boolean[];

export function emptyBoard(): boolean[] {
  return new Array<boolean>(SIZE * SIZE).fill(false);
}

/** A board from 8 strings of `#` (filled) and `.` (empty), as the APIs and golden files write it. */
export function parseBoard(rows: readonly string[]): boolean[] {
  if (rows.length !== SIZE || rows.some((r) => r.length !== SIZE)) throw new Error('a board is 8 rows of 8 cells');
  return rows.flatMap((r) => [...r].map((ch) => ch === '#'));
}

export function boardRows(board: Board): string[] {
  const rows: string[] = [];
  for (let r = 0; r < SIZE; r++) rows.push(board.slice(r * SIZE, r * SIZE + SIZE).map((f) => (f ? '#' : '.')).join(''));
  return rows;
}

export function fits(board: Board, piece: PieceShape, row: number, col: number): boolean {
  if (row < 0 || col < 0 || row + piece.height > SIZE || col + piece.width > SIZE) return false;
  return piece.cells.every(([r, c]) => !board[(row + r) * SIZE + col + c]);
}

export function canPlaceAnywhere(board: Board, piece: PieceShape): boolean {
  for (let r = 0; r <= SIZE - piece.height; r++) for (let c = 0; c <= SIZE - piece.width; c++) if (fits(board, piece, r, c)) return true;
  return false;
}

export interface Placement {
  /** The board after placing and clearing. */
  board: boolean[];
  placed: [number, number][];
  fullRows: number[];
  fullCols: number[];
  /** Every cell cleared (a cell in a full row and a full column once). */
  cleared: [number, number][];
}

/** Places a piece that fits and clears every full row and column at once. */
export function place(board: Board, piece: PieceShape, row: number, col: number): Placement {
  if (!fits(board, piece, row, col)) throw new Error(`${piece.id} does not fit at (${row},${col})`);
  const next = [...board];
  const placed: [number, number][] = piece.cells.map(([r, c]) => [row + r, col + c]);
  for (const [r, c] of placed) next[r * SIZE + c] = true;
  const fullRows: number[] = [];
  const fullCols: number[] = [];
  for (let i = 0; i < SIZE; i++) {
    let rowFull = true;
    let colFull = true;
    for (let j = 0; j < SIZE; j++) {
      rowFull &&= next[i * SIZE + j];
      colFull &&= next[j * SIZE + i];
    }
    if (rowFull) fullRows.push(i);
    if (colFull) fullCols.push(i);
  }
  const cleared: [number, number][] = [];
  for (let r = 0; r < SIZE; r++) {
    for (let c = 0; c < SIZE; c++) {
      if (fullRows.includes(r) || fullCols.includes(c)) {
        cleared.push([r, c]);
        next[r * SIZE + c] = false;
      }
    }
  }
  return { board: next, placed, fullRows, fullCols, cleared };
}

export interface Streak {
  streak: number;
  miss: number;
}

/** What one placement scores, by part (RULES.md "Score"); game-service's move answers say the same. */
export interface Points {
  lines: number;
  cellPoints: number;
  multiplier: number;
  linePoints: number;
  cleanBonus: number;
  points: number;
}

export interface Score extends Streak, Points {}

/** The points of one placement and the streak after it (RULES.md "Score"). */
export function score(before: Streak, pieceCells: number, lines: number, boardEmpty: boolean): Score {
  let { streak, miss } = before;
  if (lines >= 1) {
    streak += 1;
    miss = 0;
  } else if (++miss >= MISSES_BEFORE_STREAK_LOST) {
    streak = 0;
    miss = 0;
  }
  const multiplier = lines >= 1 ? Math.min(streak, MAX_MULTIPLIER) : 0;
  const linePoints = lines >= 1 ? ((10 * lines * (lines + 1)) / 2) * multiplier : 0;
  const cleanBonus = boardEmpty ? CLEAN_BONUS : 0;
  return { streak, miss, lines, cellPoints: pieceCells, multiplier, linePoints, cleanBonus, points: pieceCells + linePoints + cleanBonus };
}

/** The legal anchor nearest to (row, col), or null when the piece fits nowhere. */
export function nearestFit(board: Board, piece: PieceShape, row: number, col: number, maxDistance = 2): [number, number] | null {
  // A piece held past the edge is first brought back onto the board.
  row = Math.min(Math.max(row, 0), SIZE - piece.height);
  col = Math.min(Math.max(col, 0), SIZE - piece.width);
  let best: [number, number] | null = null;
  let bestDistance = Infinity;
  for (let r = 0; r <= SIZE - piece.height; r++) {
    for (let c = 0; c <= SIZE - piece.width; c++) {
      const d = Math.hypot(r - row, c - col);
      if (d <= maxDistance && d < bestDistance && fits(board, piece, r, c)) {
        best = [r, c];
        bestDistance = d;
      }
    }
  }
  return best;
}
