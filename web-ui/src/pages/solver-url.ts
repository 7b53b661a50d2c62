/*
 * The solver page's position as a URL query, so a copied link reopens it:
 *   #/solver?b=3f00808080848080&p=L3A,T4U,xx/.x&s=2&m=1&mode=maxLines
 * b: the board as 16 hex digits, two per row, top row first, column 0 the high bit of its byte
 *    (64 characters of # and . are read too); omitted when empty.
 * p: up to three pieces, comma-separated, each a catalogue id or drawn rows with `/` between rows,
 *    `x` (or `#`) filled and `.` empty; an empty entry is an empty slot.
 * s, m: streak and miss before the first piece; mode: maxLines (default) or hint; l: level for hint.
 * Pure functions (no DOM), checked by solver-url.test.ts.
 */
import { LEVELS, type Level } from '../app/api';
import { PIECES } from '../game/pieces';
import { emptyBoard, SIZE } from '../game/rules';

export type SolverMode = 'maxLines' | 'hint';

/** A piece in a slot: a catalogue id with its rows, or a drawn shape (id absent). */
export interface PieceSpec {
  id?: string;
  rows: string[];
}

export interface SolverPosition {
  board: boolean[];
  pieces: (PieceSpec | null)[];
  streak: number;
  miss: number;
  mode: SolverMode;
  level: Level;
}

export const SLOTS = 3;
export const DRAW_SIZE = 5;
export const MAX_STREAK = 999;
/** The miss count is back to 0 when it reaches 3 (RULES.md), so 0..2 are the states a game can be in. */
export const MAX_MISS = 2;
const DEFAULT_LEVEL: Level = 'HARD';

export function emptyPosition(): SolverPosition {
  return { board: emptyBoard(), pieces: [null, null, null], streak: 0, miss: 0, mode: 'maxLines', level: DEFAULT_LEVEL };
}

/** The board as 16 hex digits (a byte per row, column 0 the high bit). */
export function boardToHex(board: readonly boolean[]): string {
  let hex = '';
  for (let r = 0; r < SIZE; r++) {
    let byte = 0;
    for (let c = 0; c < SIZE; c++) if (board[r * SIZE + c]) byte |= 0x80 >> c;
    hex += byte.toString(16).padStart(2, '0');
  }
  return hex;
}

/** A board from 16 hex digits or 64 characters of `#`/`x` and `.`; null when it is neither. */
export function boardFromText(text: string): boolean[] | null {
  const s = text.trim();
  if (/^[0-9a-f]{16}$/i.test(s)) {
    const board = emptyBoard();
    for (let r = 0; r < SIZE; r++) {
      const byte = parseInt(s.slice(r * 2, r * 2 + 2), 16);
      for (let c = 0; c < SIZE; c++) board[r * SIZE + c] = (byte & (0x80 >> c)) !== 0;
    }
    return board;
  }
  const cells = s.replace(/\//g, '');
  if (cells.length === SIZE * SIZE && /^[#xX.]+$/.test(cells)) return [...cells].map((ch) => ch !== '.');
  return null;
}

/** Rows of `#`/`.` trimmed to the bounding box of their filled cells; [] when nothing is filled. */
export function trimRows(rows: readonly string[]): string[] {
  const filled: [number, number][] = [];
  rows.forEach((line, r) => [...line].forEach((ch, c) => ch === '#' && filled.push([r, c])));
  if (!filled.length) return [];
  const r0 = Math.min(...filled.map(([r]) => r));
  const r1 = Math.max(...filled.map(([r]) => r));
  const c0 = Math.min(...filled.map(([, c]) => c));
  const c1 = Math.max(...filled.map(([, c]) => c));
  const out: string[] = [];
  for (let r = r0; r <= r1; r++) {
    let line = '';
    for (let c = c0; c <= c1; c++) line += rows[r]?.[c] === '#' ? '#' : '.';
    out.push(line);
  }
  return out;
}

const BY_ROWS = new Map(PIECES.map((p) => [p.rows.join('/'), p.id]));
const BY_ID = new Map(PIECES.map((p) => [p.id, p]));

/** A drawn shape, trimmed; it takes the catalogue id when it is one of the 38 shapes. Null when empty. */
export function drawnPiece(rows: readonly string[]): PieceSpec | null {
  const trimmed = trimRows(rows);
  if (!trimmed.length) return null;
  const id = BY_ROWS.get(trimmed.join('/'));
  return id ? { id, rows: trimmed } : { rows: trimmed };
}

export function catalogue(id: string): PieceSpec | null {
  const p = BY_ID.get(id);
  return p ? { id: p.id, rows: [...p.rows] } : null;
}

export function pieceToToken(p: PieceSpec | null): string {
  if (!p) return '';
  return p.id ?? p.rows.map((r) => r.replace(/#/g, 'x')).join('/');
}

/** A catalogue id (any case), or drawn rows; null for an empty or unreadable entry. */
export function pieceFromToken(token: string): PieceSpec | null {
  const s = token.trim();
  if (!s) return null;
  const known = catalogue(s.toUpperCase());
  if (known) return known;
  if (!/^[#xX./]+$/.test(s)) return null;
  const rows = s.split('/').map((r) => r.replace(/[xX]/g, '#'));
  if (rows.length > SIZE || rows.some((r) => r.length > SIZE)) return null;
  return drawnPiece(rows);
}

const clamp = (n: number, lo: number, hi: number) => Math.min(Math.max(n, lo), hi);

function intParam(value: string | null, max: number): number {
  const n = Number.parseInt(value ?? '', 10);
  return Number.isFinite(n) ? clamp(n, 0, max) : 0;
}

/** The query string (without `?`) of a position; defaults are left out to keep links short. */
export function encodePosition(p: SolverPosition): string {
  const parts: string[] = [];
  if (p.board.some(Boolean)) parts.push(`b=${boardToHex(p.board)}`);
  const pieces = p.pieces.map(pieceToToken);
  while (pieces.length && !pieces[pieces.length - 1]) pieces.pop();
  if (pieces.length) parts.push(`p=${pieces.join(',')}`);
  parts.push(`s=${p.streak}`, `m=${p.miss}`, `mode=${p.mode}`);
  if (p.mode === 'hint') parts.push(`l=${p.level}`);
  return parts.join('&');
}

/** A position from a query; anything missing or unreadable takes its default. */
export function decodePosition(query: URLSearchParams | string): SolverPosition {
  const q = typeof query === 'string' ? new URLSearchParams(query.replace(/^\?/, '')) : query;
  const position = emptyPosition();
  const board = boardFromText(q.get('b') ?? '');
  if (board) position.board = board;
  const tokens = (q.get('p') ?? '').split(',').slice(0, SLOTS);
  position.pieces = [0, 1, 2].map((i) => pieceFromToken(tokens[i] ?? ''));
  position.streak = intParam(q.get('s'), MAX_STREAK);
  position.miss = intParam(q.get('m'), MAX_MISS);
  position.mode = q.get('mode') === 'hint' ? 'hint' : 'maxLines';
  const level = (q.get('l') ?? '').toUpperCase();
  if ((LEVELS as readonly string[]).includes(level)) position.level = level as Level;
  return position;
}
