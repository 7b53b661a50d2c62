/*
 * Post-game analysis (docs/solver.md "Analysis of a finished game"): solver-service's
 * POST /api/solver/analyse, page by page, and the pure figures the chart and the mistakes list
 * are drawn from (tested in analysis.test.ts).
 */
import { call } from '../app/api';
import { config } from '../app/config';
import type { ReplayData } from './replay';

export interface AnalysedPlacement {
  slot: number;
  piece: string;
  row: number;
  col: number;
}

export interface AnalysedMove {
  /** 1-based among the standing placements. */
  move: number;
  /** 0-based index of the placement in the replay's events: the viewer's step before it. */
  event: number;
  round: number;
  board: string[];
  remaining: (string | null)[];
  score: number;
  played: AnalysedPlacement;
  ai: AnalysedPlacement | null;
  aiLine: AnalysedPlacement[];
  /** Game points the move cost against the AI's (0 to 1000). */
  loss: number;
  fatal: boolean;
}

export interface AnalysedRound {
  round: number;
  lines: number;
  maxLines: number;
  couldClearMore: boolean;
  loss: number;
}

export interface AnalysisPage {
  totalRounds: number;
  fromRound: number;
  nextRound: number;
  complete: boolean;
  moves: AnalysedMove[];
  rounds: AnalysedRound[];
}

/**
 * The replay as solver-service reads it: `start` left out, the 64-bit seed as its exact decimal text (the engine
 * reads a number written as a string: a JavaScript number would round it).
 */
export function replayBody(replay: ReplayData): Record<string, unknown> {
  const { start: _start, ...rest } = replay;
  const seed = String(replay.seed);
  if (!/^-?\d+$/.test(seed)) throw new Error(`the replay's seed is not a whole number: ${seed}`);
  return { ...rest, seed };
}

/**
 * Asks solver-service for every page of the analysis, calling `onPage` as each arrives; stops at `maxPages`, or
 * before the next page once `wanted` says nobody looks any more (the page was left: each page is a search of up to
 * seconds on solver-service, with the whole replay sent again, and the pages left behind went on asking).
 */
export async function analyse(replay: ReplayData, onPage: (page: AnalysisPage) => void, maxPages = 20,
  wanted: () => boolean = () => true): Promise<void> {
  const body = replayBody(replay);
  let from = 0;
  for (let n = 0; n < maxPages && from >= 0 && (n === 0 || wanted()); n++) {
    const page = await call<AnalysisPage>(config().solverUrl, `/api/solver/analyse?fromRound=${from}`, { method: 'POST', body });
    onPage(page);
    if (page.nextRound >= 0 && page.nextRound <= from) break; // no progress: never loop
    from = page.nextRound;
  }
}

// ---- the chart's figures ----

export interface Bar {
  move: number;
  event: number;
  loss: number;
  x: number;
  y: number;
  width: number;
  height: number;
  fatal: boolean;
}

export interface Chart {
  width: number;
  height: number;
  /** The loss at the top of the chart: the largest loss, at least `minScale`, rounded up to a tidy number. */
  scale: number;
  bars: Bar[];
  /** Horizontal guide lines: value and y. */
  ticks: { value: number; y: number }[];
}

/** A tidy number ≥ v: 1, 2 or 5 times a power of ten. */
export function niceCeil(v: number): number {
  if (v <= 0) return 1;
  const p = 10 ** Math.floor(Math.log10(v));
  for (const k of [1, 2, 5, 10]) if (k * p >= v) return k * p;
  return 10 * p;
}

/** One bar per move, growing up from the bottom edge, in a width × height box; a loss of 0 gets no height. */
export function lossChart(moves: Pick<AnalysedMove, 'move' | 'event' | 'loss' | 'fatal'>[], width: number, height: number, minScale = 50): Chart {
  const max = moves.reduce((a, m) => Math.max(a, m.loss), 0);
  const scale = niceCeil(Math.max(max, minScale));
  const slot = moves.length ? width / moves.length : width;
  const gap = slot > 4 ? Math.min(2, slot * 0.2) : 0;
  const bars = moves.map((m, i) => {
    const h = (Math.max(0, m.loss) / scale) * height;
    return { move: m.move, event: m.event, loss: m.loss, fatal: m.fatal, x: i * slot + gap / 2, y: height - h, width: slot - gap, height: h };
  });
  const ticks = [0.5, 1].map((f) => ({ value: scale * f, y: height - f * height }));
  return { width, height, scale, bars, ticks };
}

/** The `n` costliest moves, costliest first (the earlier of equal ones first); moves that lost nothing are left out. */
export function biggestMistakes<T extends Pick<AnalysedMove, 'move' | 'loss'>>(moves: T[], n = 3): T[] {
  return moves.filter((m) => m.loss > 0).sort((a, b) => b.loss - a.loss || a.move - b.move).slice(0, n);
}

/** The cells a placement covers, from its piece id. */
export function cellsOf(shape: { cells: [number, number][] }, p: AnalysedPlacement): [number, number][] {
  return shape.cells.map(([r, c]) => [p.row + r, p.col + c] as [number, number]);
}
