/*
 * The first-visit tutorial's three steps, played on this page alone (no server, no game recorded): place a piece,
 * clear a line, clear again to see the streak. `tutorialMove` is the rules of RULES.md (game/rules.ts) on a tiny
 * scripted deal; a step is passed when its goal is met, else it starts again.
 */
import type { MoveOutcome, TrayPiece } from '../app/api';
import { piece } from './pieces';
import { boardRows, fits, parseBoard, place, score } from './rules';

export type StepGoal = 'place' | 'clear' | 'streak';

export interface TutorialStep {
  goal: StepGoal;
  board: string[];
  pieces: string[];
  /** Where the piece goes to meet the goal (shown as a hint). */
  target: { slot: number; row: number; col: number };
}

export const STEPS: readonly TutorialStep[] = [
  { goal: 'place', board: ['........', '........', '........', '........', '........', '........', '........', '........'], pieces: ['O4'], target: { slot: 0, row: 3, col: 3 } },
  { goal: 'clear', board: ['........', '........', '........', '........', '........', '........', '#.......', '######..'], pieces: ['I2H'], target: { slot: 0, row: 7, col: 6 } },
  { goal: 'streak', board: ['#.......', '#.......', '#.......', '#.......', '#.......', '#.......', '........', '.##.....'], pieces: ['I2V'], target: { slot: 0, row: 6, col: 0 } },
];

export interface TutorialState {
  board: string[];
  pieces: TrayPiece[];
  score: number;
  streak: number;
  miss: number;
}

export function startStep(step: TutorialStep, carried: { score: number; streak: number; miss: number }): TutorialState {
  return {
    board: [...step.board],
    pieces: step.pieces.map((id, slot) => ({ slot, id, rows: piece(id).rows, placed: false })),
    score: carried.score,
    streak: carried.streak,
    miss: carried.miss,
  };
}

/** One placement in the tutorial: the next state, the outcome as game-service would answer, and whether the goal is met. */
export function tutorialMove(step: TutorialStep, state: TutorialState, slot: number, row: number, col: number):
  { state: TutorialState; outcome: MoveOutcome; passed: boolean } | null {
  const p = state.pieces[slot];
  if (!p || p.placed) return null;
  const shape = piece(p.id);
  const board = parseBoard(state.board);
  if (!fits(board, shape, row, col)) return null;
  const placement = place(board, shape, row, col);
  const lines = placement.fullRows.length + placement.fullCols.length;
  const points = score({ streak: state.streak, miss: state.miss }, shape.cells.length, lines, placement.board.every((f) => !f));
  const pieces = state.pieces.map((x) => (x.slot === slot ? { ...x, placed: true } : x));
  const next: TutorialState = { board: boardRows(placement.board), pieces, score: state.score + points.points, streak: points.streak, miss: points.miss };
  const outcome: MoveOutcome = {
    lines, cellPoints: points.cellPoints, multiplier: points.multiplier, linePoints: points.linePoints, cleanBonus: points.cleanBonus,
    points: points.points, placed: placement.placed, cleared: placement.cleared, roundCompleted: false, gameOver: false,
  };
  const passed = step.goal === 'place' || (step.goal === 'clear' && lines > 0) || (step.goal === 'streak' && lines > 0 && points.streak >= 2);
  return { state: next, outcome, passed };
}
