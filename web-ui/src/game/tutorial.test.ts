import { describe, expect, it } from 'vitest';
import { startStep, STEPS, tutorialMove } from './tutorial';

describe('the tutorial', () => {
  it('played as shown, its three steps place a piece, clear a line, then clear again at streak ×2', () => {
    let carried = { score: 0, streak: 0, miss: 0 };
    const outcomes = STEPS.map((step) => {
      const { slot, row, col } = step.target;
      const move = tutorialMove(step, startStep(step, carried), slot, row, col)!;
      expect(move.passed).toBe(true);
      carried = move.state;
      return move.outcome;
    });
    expect(outcomes.map((o) => o.lines)).toEqual([0, 1, 1]);
    expect(outcomes.map((o) => o.multiplier)).toEqual([0, 1, 2]);
    expect(outcomes.map((o) => o.points)).toEqual([4, 2 + 10, 2 + 20]); // RULES.md: cells, then 10 per line times the streak
    expect(carried.streak).toBe(2);
  });

  it('a placement that misses the goal does not pass; an illegal one is refused', () => {
    const step = STEPS[1];
    const state = startStep(step, { score: 4, streak: 0, miss: 1 });
    expect(tutorialMove(step, state, 0, 0, 0)!.passed).toBe(false);
    expect(tutorialMove(step, state, 0, 7, 0)).toBeNull(); // onto filled cells
    expect(tutorialMove(step, state, 1, 0, 0)).toBeNull(); // no such piece
  });
});
